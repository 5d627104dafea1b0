import Foundation

extension URL {
    /// A URL written into the package's source: a literal that parses, which
    /// `ConstantURLTests` checks for every one. Outside input never comes through here.
    package init(constant text: StaticString) {
        guard let url = URL(string: "\(text)") else { preconditionFailure("not a URL literal: \(text)") }
        self = url
    }
}

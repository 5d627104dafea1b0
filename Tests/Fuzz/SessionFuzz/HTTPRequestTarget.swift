import Foundation
@testable import LoopbackHTTP

/// LoopbackHTTP's request-head parser, the first code any local process's bytes reach.
enum HTTPRequestTarget {
    static func run(_ data: Data) {
        expectOnly(RequestParser.Failure.self) {
            let head = try RequestParser.parseHead(data, maximumBody: 1 << 20)
            precondition(head.contentLength >= 0 && head.contentLength <= 1 << 20, "a length outside the limit was accepted")
        }
    }
}

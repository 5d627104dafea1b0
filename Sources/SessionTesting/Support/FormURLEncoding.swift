import Foundation

/// `application/x-www-form-urlencoded` encoding that leaves only RFC 3986 unreserved
/// characters as they are, for redirects and form posts made by the testing tools.
enum FormURLEncoding {
    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func encode(_ pairs: [(String, String)]) -> String {
        func escape(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }
        return pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }
}

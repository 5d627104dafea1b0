import Foundation

/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): a scheme, then either
/// parameters or one token68.
///
/// ``parse(_:)`` reads a whole header, which may carry several challenges separated by commas
/// (`Bearer realm="api", DPoP algs="ES256"`), by the RFC's grammar: quoted strings with their
/// escapes, a parameter named twice refused, nothing left over.
public struct AuthenticationChallenge: Sendable, Equatable {
    /// The scheme as sent; compare it without regard to ASCII case (RFC 9110 §11.1).
    public let scheme: String
    /// The parameters, their names folded to lowercase, quoted values unescaped.
    public let parameters: [String: String]
    /// The token68 in place of parameters (`Basic` and `Negotiate` use it), if there is one.
    public let token68: String?

    /// Creates a challenge.
    public init(scheme: String, parameters: [String: String] = [:], token68: String? = nil) {
        self.scheme = scheme
        self.parameters = parameters
        self.token68 = token68
    }

    /// True when the challenge is of `scheme`, compared without regard to ASCII case.
    public func isScheme(_ scheme: String) -> Bool { ASCII.equalIgnoringCase(self.scheme, scheme) }

    /// The longest header read: a challenge is a few hundred bytes, and a server's header is
    /// read before anything is known about the server.
    public static let maximumHeaderLength = 8 * 1024
    /// The most challenges, and parameters in one challenge, read from a header.
    static let maximumCount = 32

    /// The challenges of one `WWW-Authenticate` header value, in order.
    /// - Throws: `invalidResponse` (process `configuration`) when the value is longer than
    ///   ``maximumHeaderLength``, is not a list of challenges, or names a parameter twice.
    public static func parse(_ header: String) throws -> [AuthenticationChallenge] {
        guard header.utf8.count <= maximumHeaderLength else {
            throw malformed("it is longer than \(maximumHeaderLength) bytes")
        }
        var reader = ChallengeReader(bytes: Array(header.utf8))
        return try reader.challenges()
    }

    static func malformed(_ why: String) -> SessionError {
        SessionError(.invalidResponse, process: .configuration, message: "WWW-Authenticate: \(why)")
    }
}

/// The grammar of RFC 9110 §11.6.1 over a header's bytes.
private struct ChallengeReader {
    let bytes: [UInt8]
    var index = 0

    mutating func challenges() throws -> [AuthenticationChallenge] {
        var found: [AuthenticationChallenge] = []
        while true {
            skipListSeparators()
            guard index < bytes.count else { break }
            guard found.count < AuthenticationChallenge.maximumCount else {
                throw AuthenticationChallenge.malformed("more than \(AuthenticationChallenge.maximumCount) challenges")
            }
            found.append(try challenge())
        }
        return found
    }

    /// `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, up to the comma before the next challenge.
    private mutating func challenge() throws -> AuthenticationChallenge {
        guard let scheme = token() else { throw AuthenticationChallenge.malformed("a challenge does not start with a scheme") }
        let afterScheme = index
        skipSpaces()
        guard index > afterScheme, index < bytes.count, bytes[index] != UInt8(ascii: ",") else {
            return AuthenticationChallenge(scheme: scheme)
        }
        if let token68 = token68() { return AuthenticationChallenge(scheme: scheme, token68: token68) }
        var parameters: [String: String] = [:]
        while true {
            let start = index
            guard let name = token() else { throw AuthenticationChallenge.malformed("a parameter of '\(scheme)' has no name") }
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                // A token without "=" after a comma is the next challenge's scheme.
                guard !parameters.isEmpty else { throw AuthenticationChallenge.malformed("a parameter of '\(scheme)' has no value") }
                index = start
                break
            }
            index += 1
            skipSpaces()
            let value = try parameterValue(of: scheme)
            let key = ASCII.caseFolded(name)
            guard parameters[key] == nil else { throw AuthenticationChallenge.malformed("'\(scheme)' names parameter '\(key)' twice") }
            guard parameters.count < AuthenticationChallenge.maximumCount else {
                throw AuthenticationChallenge.malformed("'\(scheme)' has more than \(AuthenticationChallenge.maximumCount) parameters")
            }
            parameters[key] = value
            skipSpaces()
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: ",") else { throw AuthenticationChallenge.malformed("text after a parameter of '\(scheme)'") }
            skipListSeparators()
            guard index < bytes.count else { break }
        }
        return AuthenticationChallenge(scheme: scheme, parameters: parameters)
    }

    /// `token / quoted-string`.
    private mutating func parameterValue(of scheme: String) throws -> String {
        guard index < bytes.count else { throw AuthenticationChallenge.malformed("a parameter of '\(scheme)' has no value") }
        if bytes[index] == UInt8(ascii: "\"") { return try quotedString() }
        guard let value = token() else { throw AuthenticationChallenge.malformed("a parameter of '\(scheme)' has no value") }
        return value
    }

    /// A token68 that stands alone: its characters, then `=`s, then the end or a comma.
    private mutating func token68() -> String? {
        var end = index
        while end < bytes.count, Self.isToken68(bytes[end]) { end += 1 }
        guard end > index else { return nil }
        while end < bytes.count, bytes[end] == UInt8(ascii: "=") { end += 1 }
        var after = end
        while after < bytes.count, ASCII.isWhitespace(bytes[after]) { after += 1 }
        guard after == bytes.count || bytes[after] == UInt8(ascii: ",") else { return nil }
        // `name=value` is a parameter, not a token68: a token68 has only `=`s after its characters.
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end
        return text
    }

    /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE`, unescaped.
    private mutating func quotedString() throws -> String {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count, Self.isQuotable(bytes[index]) else { throw AuthenticationChallenge.malformed("a bad escape in a quoted string") }
                value.append(bytes[index])
                index += 1
            case let byte where Self.isQuotable(byte): value.append(byte)
            default: throw AuthenticationChallenge.malformed("a control character in a quoted string")
            }
        }
        throw AuthenticationChallenge.malformed("a quoted string is not closed")
    }

    private mutating func token() -> String? {
        let start = index
        while index < bytes.count, Self.isTokenCharacter(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    private mutating func skipSpaces() {
        while index < bytes.count, ASCII.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Commas and whitespace between list elements (RFC 9110 §5.6.1 allows empty ones).
    private mutating func skipListSeparators() {
        while index < bytes.count, ASCII.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
    }

    /// `tchar` (RFC 9110 §5.6.2).
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    static func isToken68(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || "-._~+/".utf8.contains(byte)
    }

    /// HTAB, SP, VCHAR and obs-text: what a quoted string may hold, escaped or not (`"` and `\`
    /// only escaped).
    static func isQuotable(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x20 || (0x21...0x7E).contains(byte) || byte >= 0x80
    }
}

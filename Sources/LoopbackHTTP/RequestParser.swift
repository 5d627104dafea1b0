import Foundation

/// Parses HTTP/1.1 request heads (RFC 9112 §3, §5) within the server's limits.
enum RequestParser {
    enum Failure: Error, Equatable {
        /// Not a well-formed request: answer 400.
        case malformed
        /// The head is over the header limit: answer 431.
        case headersTooLarge
        /// The body is over the body limit: answer 413.
        case bodyTooLarge
        /// A transfer coding the server does not implement: answer 501.
        case unsupportedTransferCoding
    }

    struct Head {
        var method: String
        var target: String
        var version: String
        var headers: [(name: String, value: String)]
        var contentLength: Int
        var keepAlive: Bool
    }

    private static let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// Parses the bytes before the blank line (without it).
    static func parseHead(_ bytes: Data, maximumBody: Int) throws -> Head {
        guard let text = String(data: bytes, encoding: .utf8) else { throw Failure.malformed }
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3 else { throw Failure.malformed }
        let method = String(requestLine[0]), target = String(requestLine[1]), version = String(requestLine[2])
        guard !method.isEmpty, method.unicodeScalars.allSatisfy(tokenCharacters.contains),
              target.hasPrefix("/"), !target.contains(where: { $0.isWhitespace }),
              version == "HTTP/1.1" || version == "HTTP/1.0" else { throw Failure.malformed }

        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed }
            let name = String(line[..<colon])
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(tokenCharacters.contains) else { throw Failure.malformed }
            headers.append((name, line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))))
        }
        func values(_ name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        }
        if !values("Transfer-Encoding").isEmpty { throw Failure.unsupportedTransferCoding }
        let lengths = Set(values("Content-Length"))
        guard lengths.count <= 1 else { throw Failure.malformed }
        var contentLength = 0
        if let length = lengths.first {
            // 1*DIGIT only (RFC 9110 §8.6): no sign, no spaces.
            guard !length.isEmpty, length.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let parsed = Int(length) else {
                throw Failure.malformed
            }
            guard parsed <= maximumBody else { throw Failure.bodyTooLarge }
            contentLength = parsed
        }
        if version == "HTTP/1.1" {
            guard values("Host").count == 1 else { throw Failure.malformed }
        }
        let connection = values("Connection").joined(separator: ",").lowercased()
        let keepAlive = version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        return Head(method: method, target: target, version: version, headers: headers, contentLength: contentLength, keepAlive: keepAlive)
    }
}

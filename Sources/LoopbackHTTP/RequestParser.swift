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

    /// Parses the bytes before the blank line (without it). Works on the bytes: the head is
    /// parsed for every request, and Foundation's string splitting and trimming dominated it.
    static func parseHead(_ bytes: Data, maximumBody: Int) throws -> Head {
        guard String(data: bytes, encoding: .utf8) != nil else { throw Failure.malformed }
        let head = [UInt8](bytes)
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0, index = 0
        while index + 1 < head.count {
            if head[index] == UInt8(ascii: "\r") && head[index + 1] == UInt8(ascii: "\n") {
                lines.append(head[lineStart..<index])
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        lines.append(head[lineStart...])

        let requestLine = lines.removeFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard requestLine.count == 3 else { throw Failure.malformed }
        let method = String(decoding: requestLine[0], as: UTF8.self), target = String(decoding: requestLine[1], as: UTF8.self)
        let version = String(decoding: requestLine[2], as: UTF8.self)
        guard !requestLine[0].isEmpty, requestLine[0].allSatisfy(FieldName.isTokenByte),
              target.hasPrefix("/"), !target.contains(where: { $0.isWhitespace }),
              version == "HTTP/1.1" || version == "HTTP/1.0" else { throw Failure.malformed }

        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(lines.count)
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw Failure.malformed }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(FieldName.isTokenByte) else { throw Failure.malformed }
            var value = line[(colon + 1)...]
            while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { value.removeFirst() }
            while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value.removeLast() }
            headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        func values(_ name: String) -> [String] {
            headers.filter { FieldName.equal($0.name, name) }.map(\.value)
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

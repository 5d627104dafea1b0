#if canImport(CLibCurl)
import Foundation

/// The header fields and body of the response a transfer is receiving. libcurl hands over every
/// header line of every response it reads (interim 1xx answers and followed redirects included),
/// so each status line starts the fields afresh: what remains is the final response's.
struct CurlResponseParts {
    var headers: [String: String] = [:]
    var body = Data()
    private var lastName: String?

    /// Takes one raw header line, its CRLF included.
    mutating func take(headerLine bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            lastName = nil
            body = Data()
            return
        }
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        guard !trimmed.isEmpty else { return }
        if trimmed.first == " " || trimmed.first == "\t" {
            // An obsolete folded continuation (RFC 9112 §5.2): part of the previous field's value.
            if let lastName { headers[lastName, default: ""] += " " + trimmed.trimmingCharacters(in: .whitespaces) }
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = String(trimmed[..<colon])
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        // A field sent more than once is one comma-separated list (RFC 9110 §5.3), under its first spelling.
        let key = headers.keys.first { ASCII.equalIgnoringCase($0, name) } ?? name
        headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        lastName = key
    }
}
#endif

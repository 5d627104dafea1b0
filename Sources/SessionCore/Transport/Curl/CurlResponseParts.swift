#if canImport(CLibCurl)
import Foundation

/// The header fields and body of the response a transfer is receiving. libcurl hands over every
/// header line of every response it reads (interim 1xx answers and followed redirects included),
/// so each status line starts the fields afresh: what remains is the final response's.
///
/// Each line is taken in time linear in its length (fields are found by their case-folded name,
/// not by a search of those before), and a response's header is bounded: at most
/// ``maximumFieldCount`` fields and ``maximumHeaderBytes`` bytes, a flood beyond ends the
/// transfer, so no response can keep the one driver thread that serves every transfer busy.
struct CurlResponseParts {
    /// The most header fields one response may have (folded continuations not counted).
    static let maximumFieldCount = 256
    /// The most bytes one response's header lines may have, line breaks included.
    static let maximumHeaderBytes = 64 * 1024

    var headers: [String: String] = [:]
    var body = Data()
    /// The name each field is kept under (its first spelling), by its case-folded name.
    private var spellings: [String: String] = [:]
    private var lastName: String?
    private var fieldCount = 0
    private var headerBytes = 0

    /// Takes one raw header line, its CRLF included; false when the response's header is over
    /// its bounds (the transfer must end).
    mutating func take(headerLine bytes: UnsafeRawBufferPointer) -> Bool {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            self = CurlResponseParts()
            return true
        }
        headerBytes += bytes.count
        guard headerBytes <= Self.maximumHeaderBytes else { return false }
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        guard !trimmed.isEmpty else { return true }
        if trimmed.first == " " || trimmed.first == "\t" {
            // An obsolete folded continuation (RFC 9112 §5.2): part of the previous field's value.
            if let lastName { headers[lastName, default: ""] += " " + trimmed.trimmingCharacters(in: .whitespaces) }
            return true
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return true }
        fieldCount += 1
        guard fieldCount <= Self.maximumFieldCount else { return false }
        let name = String(trimmed[..<colon])
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        // A field sent more than once is one comma-separated list (RFC 9110 §5.3), under its first spelling.
        let folded = ASCII.caseFolded(name)
        let key = spellings[folded] ?? name
        spellings[folded] = key
        headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        lastName = key
        return true
    }
}
#endif

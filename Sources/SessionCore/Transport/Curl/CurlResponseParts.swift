#if canImport(CLibCurl)
import Foundation

/// The header fields and body of the response a transfer is receiving. libcurl hands over every
/// header line of every response it reads (interim 1xx answers and followed redirects included),
/// so each status line starts the fields afresh: what remains is the final response's.
///
/// Each line is taken in time linear in its length (fields are found by their case-folded name,
/// not by a search of those before), and the header is bounded: at most ``maximumFieldCount``
/// fields a response and ``maximumHeaderBytes`` bytes a transfer (every response's lines, interim
/// 1xx answers and followed redirects included, so a server cannot start afresh without end); a
/// flood beyond ends the transfer, so no response can keep the one driver thread busy.
struct CurlResponseParts {
    /// The most header fields one response may have (folded continuations not counted).
    static let maximumFieldCount = 256
    /// The most bytes of header lines one transfer may receive, status lines and line breaks included.
    static let maximumHeaderBytes = 64 * 1024

    var headers: [String: String] = [:]
    var body = Data()
    /// The name each field is kept under (its first spelling), by its case-folded name.
    private var spellings: [String: String] = [:]
    private var lastName: String?
    private var fieldCount = 0
    private var headerBytes = 0
    /// Whether a status line has come: the server began to answer.
    private(set) var hasStatusLine = false

    /// Takes one raw header line, its CRLF included; false when the response's header is over
    /// its bounds (the transfer must end).
    mutating func take(headerLine bytes: UnsafeRawBufferPointer) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= Self.maximumHeaderBytes else { return false }
        if bytes.starts(with: "HTTP/".utf8) {
            // A new response: its own fields, but the transfer's byte budget goes on.
            let spent = headerBytes
            self = CurlResponseParts()
            headerBytes = spent
            hasStatusLine = true
            return true
        }
        // The line without its line break, read byte by byte (Foundation's trimming and a String
        // per line cost more than the rest of a request's header handling).
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        guard end > 0 else { return true }
        if ASCII.isWhitespace(bytes[0]) {
            // An obsolete folded continuation (RFC 9112 §5.2): part of the previous field's value.
            if let lastName { headers[lastName, default: ""] += " " + Self.text(bytes, trimming: 0..<end) }
            return true
        }
        guard let colon = bytes[0..<end].firstIndex(of: UInt8(ascii: ":")) else { return true }
        fieldCount += 1
        guard fieldCount <= Self.maximumFieldCount else { return false }
        let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<colon])
        let name = String(decoding: nameBytes, as: UTF8.self)
        let value = Self.text(bytes, trimming: (colon + 1)..<end)
        // A field sent more than once is one comma-separated list (RFC 9110 §5.3), under its first spelling.
        let folded = nameBytes.contains(where: ASCII.isUppercase) ? ASCII.caseFolded(name) : name
        let key: String
        if let first = spellings[folded] { key = first } else { key = name; spellings[folded] = name }
        headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        lastName = key
        return true
    }

    /// The text of `bytes[range]` without the spaces and tabs at its ends (RFC 9110 §5.6.3).
    private static func text(_ bytes: UnsafeRawBufferPointer, trimming range: Range<Int>) -> String {
        var start = range.lowerBound, end = range.upperBound
        while start < end, ASCII.isWhitespace(bytes[start]) { start += 1 }
        while end > start, ASCII.isWhitespace(bytes[end - 1]) { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
#endif

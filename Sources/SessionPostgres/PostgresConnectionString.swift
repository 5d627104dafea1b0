#if canImport(CLibPQ)
import CLibPQ
import Foundation
import SessionCore

/// The application's connection string as libpq reads it (`host=... dbname=...` or a
/// `postgresql://` URI): its settings, which decide how the connection is secured
/// (``PostgresTransportSecurity``), and where its password stands in it, so that a message
/// quoting a piece of the string is redacted by position. Messages are never searched for the
/// password's text: a password equal to the user name would otherwise hide the user in
/// "password authentication failed for user ...".
struct PostgresConnectionString: Sendable {
    /// The settings the string gives (libpq's keywords), without libpq's defaults or the environment.
    let settings: [String: String]
    private let text: [UInt8]
    /// Where the password's characters are in the string (in a `password=` setting, a URI's user
    /// information, or a URI's `password` parameter).
    private let passwordRanges: [Range<Int>]

    /// The settings of `text`; nil when libpq cannot parse it.
    /// - Throws: `unavailable` when libpq cannot be loaded.
    init?(_ text: String) throws(PostgresFailure) {
        let api = try PostgresConnection.library()
        var error: UnsafeMutablePointer<CChar>?
        let parsed = api.PQconninfoParse(text, &error)
        if let error { api.PQfreemem(error) }
        guard let parsed else { return nil }
        defer { api.PQconninfoFree(parsed) }
        var settings: [String: String] = [:]
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { settings[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        self.settings = settings
        self.text = Array(text.utf8)
        passwordRanges = Self.passwordRanges(in: self.text)
    }

    /// `message` with every quoted piece of it that is the password's part of the connection
    /// string replaced by `•••`; the rest of the message as it is.
    func redact(_ message: String) -> String {
        guard !passwordRanges.isEmpty else { return message }
        var out = ""
        var rest = Substring(message)
        while let open = rest.firstIndex(of: "\""), let close = rest[rest.index(after: open)...].firstIndex(of: "\"") {
            let quoted = rest[rest.index(after: open)..<close]
            out += rest[...open]
            out += quotesPassword(Array(quoted.utf8)) ? "•••" : String(quoted)
            out += "\""
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// True when `piece` can only have come from the password's place in the connection string:
    /// it occurs there, and everywhere it occurs it overlaps the password. A piece that also
    /// stands elsewhere (the user name, when the password equals it) is that other setting.
    private func quotesPassword(_ piece: [UInt8]) -> Bool {
        guard !piece.isEmpty, piece.count <= text.count else { return false }
        var found = false
        for start in 0...(text.count - piece.count) where text[start..<start + piece.count].elementsEqual(piece) {
            let place = start..<start + piece.count
            guard passwordRanges.contains(where: { $0.overlaps(place) }) else { return false }
            found = true
        }
        return found
    }

    /// Where passwords stand in a connection string, in both of libpq's forms.
    private static func passwordRanges(in text: [UInt8]) -> [Range<Int>] {
        let lowered = text.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        if lowered.starts(with: Array("postgresql://".utf8)) || lowered.starts(with: Array("postgres://".utf8)) {
            return uriPasswordRanges(in: text)
        }
        var ranges: [Range<Int>] = []
        var index = 0
        // key = value pairs, values bare or in single quotes with backslash escapes.
        while index < text.count {
            while index < text.count, isSpace(text[index]) { index += 1 }
            let keyStart = index
            while index < text.count, text[index] != UInt8(ascii: "="), !isSpace(text[index]) { index += 1 }
            let key = text[keyStart..<index]
            while index < text.count, isSpace(text[index]) { index += 1 }
            guard index < text.count, text[index] == UInt8(ascii: "=") else { break }
            index += 1
            while index < text.count, isSpace(text[index]) { index += 1 }
            let valueStart = index
            if index < text.count, text[index] == UInt8(ascii: "'") {
                index += 1
                while index < text.count, text[index] != UInt8(ascii: "'") { index += text[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index = min(index + 1, text.count)
            } else {
                while index < text.count, !isSpace(text[index]) { index += 1 }
            }
            if key.elementsEqual("password".utf8) { ranges.append(valueStart..<index) }
        }
        return ranges
    }

    /// A URI's password: after the first `:` of its user information, and any `password` parameter.
    private static func uriPasswordRanges(in text: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        guard let scheme = text.indices.first(where: { text[$0] == UInt8(ascii: ":") }) else { return [] }
        let authorityStart = scheme + 3
        let authorityEnd = text[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? text.count
        if let at = text[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
           let colon = text[authorityStart..<at].firstIndex(of: UInt8(ascii: ":")) {
            ranges.append(colon + 1..<at)
        }
        if let query = text[authorityStart...].firstIndex(of: UInt8(ascii: "?")) {
            var start = query + 1
            while start < text.count {
                let end = text[start...].firstIndex(of: UInt8(ascii: "&")) ?? text.count
                let pair = text[start..<end]
                if pair.starts(with: "password=".utf8) { ranges.append(start + 9..<end) }
                start = end + 1
            }
        }
        return ranges
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
#endif

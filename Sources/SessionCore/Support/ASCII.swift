/// ASCII-only text rules for protocol tokens (header names, token types), which RFC 9110 and
/// RFC 6749 compare without regard to case. Foundation's case-insensitive comparison is
/// locale-aware and, on Linux, far slower.
package enum ASCII {
    /// True when `a` and `b` are equal once ASCII letters are folded to lowercase; other bytes
    /// must match exactly.
    package static func equalIgnoringCase(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8) { lowercase($0) == lowercase($1) }
    }

    /// `text` with its ASCII letters folded to lowercase, other bytes kept: a key under which
    /// names that ``equalIgnoringCase(_:_:)`` calls equal are one.
    package static func caseFolded(_ text: some StringProtocol) -> String {
        // Most protocol names arrive folded already: no byte-by-byte copy for them.
        guard text.utf8.contains(where: isUppercase) else { return String(text) }
        let utf8 = text.utf8
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            for (offset, byte) in utf8.enumerated() { buffer[offset] = lowercase(byte) }
            return utf8.count
        }
    }

    /// `text` without the spaces and horizontal tabs at its ends (HTTP's optional whitespace,
    /// RFC 9110 §5.6.3), found byte by byte rather than by Foundation's character sets.
    package static func trimmingWhitespace(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, isWhitespace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isWhitespace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return text[start..<end]
    }

    /// True for a space or a horizontal tab.
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// True for `A`–`Z`, `a`–`z` and `0`–`9`.
    package static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// True for `A`–`Z`.
    package static func isUppercase(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

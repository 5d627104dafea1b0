/// Header field names (RFC 9110 §5.1): tokens, compared without regard to ASCII case. Foundation's
/// case-insensitive comparison is locale-aware and, on Linux, far slower than this.
enum FieldName {
    /// True when `a` and `b` are equal once ASCII letters are folded to lowercase.
    static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8) { lowercase($0) == lowercase($1) }
    }

    /// True for a `tchar` (RFC 9110 §5.6.2), the bytes a method or a field name is made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

import Foundation

/// A strict RFC 8259 reader for JSON that comes from outside: a provider's documents, ID-token
/// headers and payloads, key sets.
///
/// Stricter than `JSONDecoder` where a lenient reading would let two parties see different
/// values (RFC 7515 §5.2, RFC 7519 §4): a member name given twice in one object is refused
/// rather than read first- or last-wins; a byte-order mark, invalid UTF-8, a lone surrogate
/// escape, a control character inside a string, a number too large for a `Double`, trailing
/// bytes and nesting deeper than ``maximumDepth`` are refused too.
enum StrictJSON {
    /// Nesting deeper than this is refused (no provider document comes near it).
    static let maximumDepth = 64

    /// Why a document was refused. Its description names a member at most, never a value.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A name from a document as an error may show it: quoted, printable ASCII only, at most 32 characters.
    static func printable(_ name: String) -> String {
        let shown = name.unicodeScalars.prefix(32).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }
        return "'\(String(shown))'"
    }

    /// Parses `data` as exactly one JSON object.
    static func object(_ data: Data) throws -> [String: JSONValue] {
        guard case .object(let members) = try parse(data) else { throw Failure(description: "it is not a JSON object") }
        return members
    }

    /// Parses `data` as exactly one JSON value.
    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { bytes in
            var reader = Reader(bytes: bytes)
            reader.skipWhitespace()
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.atEnd else { throw reader.fail("bytes follow the JSON value") }
            return value
        }
    }
}

private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var atEnd: Bool { index >= bytes.count }

    func fail(_ why: String) -> StrictJSON.Failure {
        StrictJSON.Failure(description: "not valid JSON at byte \(index): \(why)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func peek() throws -> UInt8 {
        guard index < bytes.count else { throw fail("the document ends early") }
        return bytes[index]
    }

    mutating func expect(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
              literal.withUTF8Buffer({ $0.elementsEqual(bytes[index..<(index + count)]) }) else {
            throw fail("unexpected characters")
        }
        index += count
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < StrictJSON.maximumDepth else { throw fail("nested deeper than \(StrictJSON.maximumDepth) levels") }
        switch try peek() {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("a value cannot start here")
        }
    }

    mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw fail("a member name must be a string") }
            let name = try string()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw fail("':' must follow a member name") }
            index += 1
            skipWhitespace()
            let member = try value(depth: depth + 1)
            guard members.updateValue(member, forKey: name) == nil else {
                throw StrictJSON.Failure(description: "member \(StrictJSON.printable(name)) appears more than once")
            }
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw fail("',' or '}' must follow a member") }
        }
    }

    mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw fail("',' or ']' must follow an element") }
        }
    }

    mutating func string() throws -> String {
        index += 1
        var scalars: [UInt8] = []
        var escaped = false
        var start = index
        while true {
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "\""):
                // Most strings have no escape: made from the document's bytes with no copy between.
                let text = escaped ? String(validating: scalars + bytes[start..<index], as: UTF8.self)
                    : String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                guard let text else { throw fail("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: bytes[start..<index])
                escaped = true
                index += 1
                try escape(into: &scalars)
                start = index
            case 0x00..<0x20:
                throw fail("a control character must be escaped inside a string")
            default:
                index += 1
            }
        }
    }

    mutating func escape(into output: inout [UInt8]) throws {
        let byte = try peek()
        index += 1
        let simple: UInt8? = switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            output.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw fail("an unknown escape") }
        var value = try hexQuad()
        if (0xD800...0xDBFF).contains(value) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("a high surrogate escape without its low half")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("a high surrogate escape without its low half") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
            throw fail("a low surrogate escape without its high half")
        }
        guard let scalar = Unicode.Scalar(value) else { throw fail("an escape that is no Unicode scalar") }
        output.append(contentsOf: UTF8.encode(scalar).map(Array.init) ?? [])
    }

    mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("the document ends inside an escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = Self.hexDigit(byte) else { throw fail("an escape with a non-hex digit") }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, read as a finite `Double`.
    mutating func number() throws -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func digits() throws -> Int {
            let first = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > first else { throw fail("a number needs digits here") }
            return index - first
        }
        let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
        let integerDigits = try digits()
        guard !(leadingZero && integerDigits > 1) else { throw fail("a number with a leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            _ = try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            _ = try digits()
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw fail("a number out of range")
        }
        return value
    }
}

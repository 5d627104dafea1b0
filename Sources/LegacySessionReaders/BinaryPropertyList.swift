import Foundation
import SessionCore

/// A value of a binary property list (`bplist00`), the format `NSKeyedArchiver` writes.
enum PropertyListValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001-01-01.
    case date(Double)
    case data(Data)
    case string(String)
    /// A keyed archive's reference to an entry of its `$objects`.
    case uid(Int)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
}

/// Reads a binary property list written by an untrusted hand: every offset, count and reference
/// is checked before use, nesting is bounded, and so are the number of values built and the bytes
/// their data and strings hold (shared references could otherwise make a small file expand
/// without end: each reference to a data object copies it). Any fault is a `storageCorrupt`
/// error; nothing here can trap on input.
///
/// The layout (Apple's CFBinaryPList.c describes it): the magic `bplist00`, the objects, a table of
/// their offsets, and a 32-byte trailer giving the table's entry size, the reference size, the
/// object count, the top object and the table's offset.
struct BinaryPropertyList {
    /// The largest file read: legacy sessions are a few kilobytes.
    static let maximumSize = 1 << 20
    private static let maximumDepth = 32
    private static let maximumValues = 100_000
    /// The most bytes of data and strings built, counting each reference's copy: four times the
    /// largest file, far beyond what a legacy session holds.
    private static let maximumBytes = 4 * maximumSize

    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    private var built = 0
    private var bytesBuilt = 0

    /// The top object of `data`.
    static func parse(_ data: Data) throws -> PropertyListValue {
        var list = try BinaryPropertyList(data)
        return try list.value(list.topObject, depth: 0)
    }

    private let topObject: Int

    private init(_ data: Data) throws {
        guard data.count <= Self.maximumSize else { throw Self.corrupt("it is larger than \(Self.maximumSize) bytes") }
        bytes = [UInt8](data)
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw Self.corrupt("it is not a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              let count = Self.bigEndian(bytes, at: trailer + 8, size: 8),
              let top = Self.bigEndian(bytes, at: trailer + 16, size: 8),
              let tableOffset = Self.bigEndian(bytes, at: trailer + 24, size: 8),
              count > 0, count <= trailer, top < count, tableOffset >= 8, tableOffset <= trailer,
              count <= (trailer - tableOffset) / offsetSize else {
            throw Self.corrupt("its trailer is not valid")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            guard let offset = Self.bigEndian(bytes, at: tableOffset + index * offsetSize, size: offsetSize),
                  offset >= 8, offset < tableOffset else { throw Self.corrupt("an object's offset is outside the objects") }
            offsets.append(offset)
        }
        self.offsets = offsets
        topObject = top
    }

    /// Counts `count` more bytes built; throws once they pass the budget.
    private mutating func spend(_ count: Int) throws {
        bytesBuilt += max(0, count)
        guard bytesBuilt <= Self.maximumBytes else { throw Self.corrupt("it expands to more than \(Self.maximumBytes) bytes of data") }
    }

    /// The object at index `index` of the offset table.
    private mutating func value(_ index: Int, depth: Int) throws -> PropertyListValue {
        guard depth < Self.maximumDepth else { throw Self.corrupt("it nests deeper than \(Self.maximumDepth) levels") }
        guard index >= 0, index < offsets.count else { throw Self.corrupt("a reference points past the objects") }
        built += 1
        guard built <= Self.maximumValues else { throw Self.corrupt("it expands to more than \(Self.maximumValues) values") }
        let start = offsets[index]
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw Self.corrupt("it holds an unknown simple value")
            }
        case 0x1:
            guard info <= 3, let value = Self.bigEndian(bytes, at: start + 1, size: 1 << info, signed: true) else {
                throw Self.corrupt("an integer is cut short or too wide")
            }
            return .integer(Int64(value))
        case 0x2:
            return .real(try real(at: start + 1, size: 1 << info))
        case 0x3:
            guard marker == 0x33 else { throw Self.corrupt("a date is not 8 bytes") }
            return .date(try real(at: start + 1, size: 8))
        case 0x4:
            let (count, at) = try length(info, after: start)
            try spend(count)
            return .data(Data(try slice(at, count)))
        case 0x5:
            let (count, at) = try length(info, after: start)
            try spend(count)
            guard let text = String(bytes: try slice(at, count), encoding: .ascii) else { throw Self.corrupt("an ASCII string is not ASCII") }
            return .string(text)
        case 0x6:
            let (count, at) = try length(info, after: start)
            let (units, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw Self.corrupt("a string's length overflows") }
            try spend(units)
            let raw = try slice(at, units)
            let codeUnits = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[raw.startIndex + $0]) << 8 | UInt16(raw[raw.startIndex + $0 + 1]) }
            return .string(String(decoding: codeUnits, as: UTF16.self))
        case 0x8:
            guard let uid = Self.bigEndian(bytes, at: start + 1, size: info + 1) else { throw Self.corrupt("a reference is cut short") }
            return .uid(uid)
        case 0xA:
            let (count, at) = try length(info, after: start)
            return .array(try references(at, count).map { try value($0, depth: depth + 1) })
        case 0xD:
            let (count, at) = try length(info, after: start)
            let (keyBytes, overflow) = count.multipliedReportingOverflow(by: referenceSize)
            guard !overflow else { throw Self.corrupt("a dictionary's size overflows") }
            let keys = try references(at, count)
            let values = try references(at + keyBytes, count)
            var dictionary: [String: PropertyListValue] = [:]
            for (key, value) in zip(keys, values) {
                guard case .string(let name) = try self.value(key, depth: depth + 1) else {
                    throw Self.corrupt("a dictionary has a key that is not a string")
                }
                dictionary[name] = try self.value(value, depth: depth + 1)
            }
            return .dictionary(dictionary)
        default:
            throw Self.corrupt("it holds a kind of value keyed archives do not use")
        }
    }

    /// A count: `info` itself, or (when it is 15) the integer object that follows the marker.
    private func length(_ info: Int, after marker: Int) throws -> (count: Int, start: Int) {
        guard info == 0x0F else { return (info, marker + 1) }
        guard marker + 1 < bytes.count, bytes[marker + 1] >> 4 == 0x1 else { throw Self.corrupt("a length is not an integer") }
        let size = 1 << Int(bytes[marker + 1] & 0x0F)
        guard size <= 8, let count = Self.bigEndian(bytes, at: marker + 2, size: size), count >= 0 else {
            throw Self.corrupt("a length is not valid")
        }
        return (count, marker + 2 + size)
    }

    private func slice(_ start: Int, _ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, start >= 0, start <= bytes.count, count <= bytes.count - start else {
            throw Self.corrupt("a value runs past the end")
        }
        return bytes[start..<start + count]
    }

    private func references(_ start: Int, _ count: Int) throws -> [Int] {
        let (size, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else { throw Self.corrupt("a collection's size overflows") }
        _ = try slice(start, size)
        return try (0..<count).map { index in
            guard let reference = Self.bigEndian(bytes, at: start + index * referenceSize, size: referenceSize) else {
                throw Self.corrupt("a reference is cut short")
            }
            return reference
        }
    }

    private func real(at start: Int, size: Int) throws -> Double {
        guard let bits = Self.raw(bytes, at: start, size: size) else { throw Self.corrupt("a number is cut short") }
        switch size {
        case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case 8: return Double(bitPattern: UInt64(truncatingIfNeeded: bits))
        default: throw Self.corrupt("a real number is neither 4 nor 8 bytes")
        }
    }

    /// The `size`-byte big-endian number at `start`; nil when it runs past the end, or (unsigned)
    /// does not fit in a non-negative `Int`.
    private static func bigEndian(_ bytes: [UInt8], at start: Int, size: Int, signed: Bool = false) -> Int? {
        guard let value = raw(bytes, at: start, size: size) else { return nil }
        if signed {
            // Integers of 8 bytes are signed in this format; narrower ones are not.
            return size == 8 ? Int(Int64(bitPattern: value)) : Int(value)
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// The `size` bytes at `start` as a big-endian unsigned number; nil when they run past the end.
    private static func raw(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64? {
        guard size >= 1, size <= 8, start >= 0, start <= bytes.count - size else { return nil }
        return bytes[start..<start + size].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func corrupt(_ why: String) -> SessionError {
        SessionError.unreadableLegacySession(why)
    }
}

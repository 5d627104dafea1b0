import Foundation
import SessionCore

/// An `NSKeyedArchiver` archive read as data, never as objects: the graph of `$objects` is
/// walked by reference, each object's class is only a name to compare, and nothing is
/// instantiated. (swift-corelibs-foundation's `NSKeyedUnarchiver` stops the process on some
/// hostile archives, where this answers `storageCorrupt`.)
struct KeyedArchive {
    /// An archived object: the name of its class and its encoded fields.
    struct Object {
        let className: String
        let fields: [String: PropertyListValue]
    }

    private let objects: [PropertyListValue]
    private let top: [String: PropertyListValue]

    /// Reads `data` as a keyed archive.
    init(_ data: Data) throws {
        guard case .dictionary(let archive) = try BinaryPropertyList.parse(data),
              case .string(let archiver)? = archive["$archiver"], Exact.equal(archiver, "NSKeyedArchiver"),
              case .array(let objects)? = archive["$objects"],
              case .dictionary(let top)? = archive["$top"] else {
            throw SessionError.unreadableLegacySession("it is not a keyed archive")
        }
        self.objects = objects
        self.top = top
    }

    /// The object under `key` at the top (the root object is under `root`), if it is of class `className`.
    func topObject(_ key: String, of className: String) -> Object? {
        object(top[key], of: className)
    }

    /// What `value` refers to: an entry of `$objects`, or nil for `$null` and anything else.
    private func resolve(_ value: PropertyListValue?) -> PropertyListValue? {
        guard case .uid(let index)? = value, index > 0, index < objects.count else { return nil }
        return objects[index]
    }

    /// The object `value` refers to, if it is of class `className` exactly.
    func object(_ value: PropertyListValue?, of className: String) -> Object? {
        guard let found = anyObject(value), Exact.equal(found.className, className) else { return nil }
        return found
    }

    private func anyObject(_ value: PropertyListValue?) -> Object? {
        guard case .dictionary(let fields)? = resolve(value),
              case .dictionary(let classInfo)? = resolve(fields["$class"]),
              case .string(let className)? = classInfo["$classname"] else { return nil }
        return Object(className: className, fields: fields)
    }

    /// The string `value` refers to: a plain string, or an `NSString` / `NSMutableString` object.
    func string(_ value: PropertyListValue?) -> String? {
        switch resolve(value) {
        case .string(let text)?:
            return text
        case .dictionary?:
            guard let object = anyObject(value), Exact.contains(["NSString", "NSMutableString"], object.className) else { return nil }
            if case .string(let text)? = object.fields["NS.string"] { return text }
            return nil
        default:
            return nil
        }
    }

    /// The absolute URL an `NSURL` object `value` refers to holds (a relative one with a base is not read).
    func url(_ value: PropertyListValue?) -> URL? {
        guard let object = object(value, of: "NSURL"), resolve(object.fields["NS.base"]) == nil,
              let text = string(object.fields["NS.relative"]) else { return nil }
        return URL(string: text)
    }

    /// The string values of the `NSDictionary` / `NSMutableDictionary` `value` refers to, by key;
    /// entries whose key or value is not a string are left out.
    func strings(_ value: PropertyListValue?) -> [String: String] {
        guard let object = anyObject(value), Exact.contains(["NSDictionary", "NSMutableDictionary"], object.className),
              case .array(let keys)? = object.fields["NS.keys"], case .array(let values)? = object.fields["NS.objects"],
              keys.count == values.count else { return [:] }
        var strings: [String: String] = [:]
        for (key, value) in zip(keys, values) {
            if let key = string(key), let value = string(value) { strings[key] = value }
        }
        return strings
    }
}

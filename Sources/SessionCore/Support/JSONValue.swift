import Foundation

/// A JSON value, used for claims and other provider data whose shape is open.
///
/// Decoding is strict about types: a JSON `true` is never a number and `1` is never a boolean.
public enum JSONValue: Sendable, Equatable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: Decoder) throws {
        // Each typed decode is strict, so the order only decides how many attempts fail (and
        // build an error) first: strings, the commonest values in provider documents, go first.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it came from.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, when this is a number.
    public var numberValue: Double? { if case .number(let value) = self { value } else { nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }

    /// Parses `data` as one JSON value, strictly (``StrictJSON``); nil when it is not such JSON.
    package static func parse(_ data: Data) -> JSONValue? {
        try? StrictJSON.parse(data)
    }
}

/// Typed reads from a JSON object that turn every missing or mistyped member into one
/// `SessionError` chosen by the caller.
struct JSONFields {
    let members: [String: JSONValue]
    private let failure: @Sendable (String) -> SessionError

    /// Parses `data` strictly (``StrictJSON``) as a JSON object, or throws `failure("...")`.
    init(data: Data, failure: @escaping @Sendable (String) -> SessionError) throws {
        let members: [String: JSONValue]
        do {
            members = try StrictJSON.object(data)
        } catch {
            throw failure("the body is not an acceptable JSON object (\(error))")
        }
        self.init(members: members, failure: failure)
    }

    init(members: [String: JSONValue], failure: @escaping @Sendable (String) -> SessionError) {
        self.members = members
        self.failure = failure
    }

    func fail(_ why: String) -> SessionError { failure(why) }

    func string(_ key: String) throws -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw failure("member '\(key)' is not a string")
        }
    }

    func requiredString(_ key: String) throws -> String {
        guard let value = try string(key), !value.isEmpty else { throw failure("member '\(key)' is missing or empty") }
        return value
    }

    func number(_ key: String) throws -> Double? {
        switch members[key] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        default: throw failure("member '\(key)' is not a number")
        }
    }

    func bool(_ key: String) throws -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw failure("member '\(key)' is not a boolean")
        }
    }

    func strings(_ key: String) throws -> [String]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let values)?:
            let strings = values.compactMap(\.stringValue)
            guard strings.count == values.count else { throw failure("member '\(key)' is not an array of strings") }
            return strings
        default: throw failure("member '\(key)' is not an array")
        }
    }

    func url(_ key: String) throws -> URL? {
        guard let text = try string(key) else { return nil }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw failure("member '\(key)' is not an absolute URL")
        }
        return url
    }

    func requiredURL(_ key: String) throws -> URL {
        guard let url = try url(key) else { throw failure("member '\(key)' is missing") }
        return url
    }
}

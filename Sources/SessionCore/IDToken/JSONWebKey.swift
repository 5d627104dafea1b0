import Foundation

/// A public key from the provider's JWK Set (RFC 7517). Only the members SessionService uses.
public struct JSONWebKey: Sendable, Equatable {
    /// Key type: `RSA` or `EC`.
    public var kty: String
    /// Key ID, matched exactly against the ID token's `kid` header.
    public var kid: String?
    /// The algorithm the key is meant for, when the provider says.
    public var alg: String?
    /// `sig` or `enc`, when the provider says.
    public var use: String?
    /// The operations the key is meant for (`verify`, `encrypt`, ...), when the provider says.
    public var keyOps: [String]?
    /// RSA modulus and exponent, base64url.
    public var n: String?, e: String?
    /// EC curve and coordinates, base64url.
    public var crv: String?, x: String?, y: String?

    /// Creates a key from its members.
    public init(kty: String, kid: String? = nil, alg: String? = nil, use: String? = nil, keyOps: [String]? = nil,
                n: String? = nil, e: String? = nil, crv: String? = nil, x: String? = nil, y: String? = nil) {
        self.kty = kty; self.kid = kid; self.alg = alg; self.use = use; self.keyOps = keyOps
        self.n = n; self.e = e; self.crv = crv; self.x = x; self.y = y
    }

    /// Reads one entry of a JWK Set; nil when it is malformed: not an object, no string `kty`,
    /// or a member we read (`kid`, `alg`, `use`, `key_ops`, `n`, `e`, `crv`, `x`, `y`) of the
    /// wrong JSON type. A malformed key is ignored rather than read with that member absent,
    /// which could widen what it may be used for.
    init?(_ entry: JSONValue) {
        guard let members = entry.objectValue, let kty = members["kty"]?.stringValue else { return nil }
        var malformed = false
        func text(_ name: String) -> String? {
            guard let value = members[name] else { return nil }
            if let text = value.stringValue { return text }
            malformed = true
            return nil
        }
        var keyOps: [String]?
        if let value = members["key_ops"] {
            let operations = value.arrayValue?.compactMap(\.stringValue)
            // RFC 7517 §4.3: an array of strings, each at most once.
            if let operations, operations.count == value.arrayValue?.count, Set(operations).count == operations.count {
                keyOps = operations
            } else {
                malformed = true
            }
        }
        self.init(kty: kty, kid: text("kid"), alg: text("alg"), use: text("use"), keyOps: keyOps,
                  n: text("n"), e: text("e"), crv: text("crv"), x: text("x"), y: text("y"))
        if malformed { return nil }
    }

    /// True when this key may verify a signature made with `algorithm`: its `use` is absent or
    /// `sig`, its `key_ops` absent or containing `verify`, its `alg` absent or `algorithm`, and
    /// its type and curve those of `algorithm`. Every comparison is exact.
    func fits(_ algorithm: JWSAlgorithm) -> Bool {
        if use != nil, !Exact.equal(use, "sig") { return false }
        if let keyOps, !Exact.contains(keyOps, "verify") { return false }
        if alg != nil, !Exact.equal(alg, algorithm.rawValue) { return false }
        switch algorithm {
        case .rs256: return Exact.equal(kty, "RSA")
        case .es256: return Exact.equal(kty, "EC") && Exact.equal(crv, "P-256")
        }
    }
}

/// A parsed JWK Set. Keys of a type we do not use, and malformed keys, are skipped, as RFC 7517
/// §5 asks; the set's JSON is read strictly (``StrictJSON``: a member given twice is refused).
struct JSONWebKeySet: Sendable, Equatable {
    var keys: [JSONWebKey]

    init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Parses `{"keys": [...]}`.
    init(data: Data) throws {
        let fields = try JSONFields(data: data) { why in
            SessionError(.invalidResponse, process: .authentication, message: "JWK Set: \(why)")
        }
        guard case .array(let entries)? = fields.members["keys"] else { throw fields.fail("member 'keys' is missing") }
        keys = entries.compactMap(JSONWebKey.init)
    }

    /// The keys that may verify `algorithm` signatures (``JSONWebKey/fits(_:)``).
    func candidates(for algorithm: JWSAlgorithm) -> [JSONWebKey] {
        keys.filter { $0.fits(algorithm) }
    }

    /// The key for a token header: the one whose `kid` is exactly the header's, or — when the
    /// header names none — the only key that fits the algorithm. Two fitting keys with the
    /// header's `kid` are ambiguous: none is chosen.
    func key(kid: String?, algorithm: JWSAlgorithm) -> JSONWebKey? {
        let fitting = candidates(for: algorithm)
        let matching = kid.map { kid in fitting.filter { Exact.equal($0.kid, kid) } } ?? fitting
        return matching.count == 1 ? matching[0] : nil
    }
}

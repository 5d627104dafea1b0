import Foundation

/// A public key from the provider's JWK Set (RFC 7517). Only the members SessionService uses.
public struct JSONWebKey: Sendable, Equatable {
    /// Key type: `RSA` or `EC`.
    public var kty: String
    /// Key ID, matched against the ID token's `kid` header.
    public var kid: String?
    /// The algorithm the key is meant for, when the provider says.
    public var alg: String?
    /// `sig` or `enc`, when the provider says.
    public var use: String?
    /// RSA modulus and exponent, base64url.
    public var n: String?, e: String?
    /// EC curve and coordinates, base64url.
    public var crv: String?, x: String?, y: String?

    /// Creates a key from its members.
    public init(kty: String, kid: String? = nil, alg: String? = nil, use: String? = nil,
                n: String? = nil, e: String? = nil, crv: String? = nil, x: String? = nil, y: String? = nil) {
        self.kty = kty; self.kid = kid; self.alg = alg; self.use = use
        self.n = n; self.e = e; self.crv = crv; self.x = x; self.y = y
    }

    /// True when this key may verify a signature made with `algorithm`.
    func fits(_ algorithm: JWSAlgorithm) -> Bool {
        if let use, use != "sig" { return false }
        if let alg, alg != algorithm.rawValue { return false }
        switch algorithm {
        case .rs256: return kty == "RSA"
        case .es256: return kty == "EC" && crv == "P-256"
        }
    }
}

/// A parsed JWK Set. Members of unknown type are skipped, as RFC 7517 §5 asks.
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
        keys = entries.compactMap { entry -> JSONWebKey? in
            guard let members = entry.objectValue, let kty = members["kty"]?.stringValue else { return nil }
            func text(_ name: String) -> String? { members[name]?.stringValue }
            return JSONWebKey(kty: kty, kid: text("kid"), alg: text("alg"), use: text("use"),
                              n: text("n"), e: text("e"), crv: text("crv"), x: text("x"), y: text("y"))
        }
    }

    /// The key for a token header: the one with its `kid`, or — when the header names none —
    /// the only key that fits the algorithm.
    func key(kid: String?, algorithm: JWSAlgorithm) -> JSONWebKey? {
        let candidates = keys.filter { $0.fits(algorithm) }
        if let kid { return candidates.first { $0.kid == kid } }
        return candidates.count == 1 ? candidates[0] : nil
    }
}

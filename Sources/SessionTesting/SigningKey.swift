#if canImport(CLibCrypto)
import CLibCrypto
import Foundation
import SessionCore

/// A private signing key made at start, for test providers that issue ID tokens: RS256 (RSA
/// 2048) or ES256 (P-256), through libcrypto. Publishes its public half as a JWK.
///
/// `@unchecked Sendable`: the key is created in `init`, never mutated, and libcrypto allows
/// concurrent signing with one EVP_PKEY; `deinit` frees it when no one holds the value.
public final class SigningKey: @unchecked Sendable {
    /// The algorithm this key signs with.
    public let algorithm: JWSAlgorithm
    /// The key ID published in the JWK and the token header.
    public let keyID: String
    /// The public half, as published in a JWK Set.
    public let publicJWK: JSONWebKey
    private let key: OpaquePointer

    /// Generates a fresh key.
    public init(algorithm: JWSAlgorithm, keyID: String = UUID().uuidString) throws {
        self.algorithm = algorithm
        self.keyID = keyID
        let key = try Self.generate(algorithm)
        self.key = key
        switch algorithm {
        case .rs256:
            publicJWK = JSONWebKey(kty: "RSA", kid: keyID, alg: algorithm.rawValue, use: "sig",
                                   n: Self.base64URL(try Self.bignumParameter(key, "n", width: nil)),
                                   e: Self.base64URL(try Self.bignumParameter(key, "e", width: nil)))
        case .es256:
            publicJWK = JSONWebKey(kty: "EC", kid: keyID, alg: algorithm.rawValue, use: "sig", crv: "P-256",
                                   x: Self.base64URL(try Self.bignumParameter(key, "qx", width: 32)),
                                   y: Self.base64URL(try Self.bignumParameter(key, "qy", width: 32)))
        }
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The JWK Set document `{"keys": [...]}` for `keys`.
    public static func jwksDocument(_ keys: [JSONWebKey]) -> Data {
        let entries: [[String: String]] = keys.map { key in
            var entry = ["kty": key.kty]
            for (name, value) in [("kid", key.kid), ("alg", key.alg), ("use", key.use), ("n", key.n), ("e", key.e),
                                  ("crv", key.crv), ("x", key.x), ("y", key.y)] {
                if let value { entry[name] = value }
            }
            return entry
        }
        return (try? JSONSerialization.data(withJSONObject: ["keys": entries], options: [.sortedKeys])) ?? Data()
    }

    /// A compact JWS of `claims` with this key. `header` members override the defaults
    /// (`alg`, `kid`, `typ`), which lets tests forge bad headers.
    public func sign(claims: [String: Any], header: [String: Any] = [:]) throws -> String {
        var fullHeader: [String: Any] = ["alg": algorithm.rawValue, "kid": keyID, "typ": "JWT"]
        fullHeader.merge(header) { _, new in new }
        let headerPart = Self.base64URL(try JSONSerialization.data(withJSONObject: fullHeader, options: [.sortedKeys]))
        let payloadPart = Self.base64URL(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let input = Data("\(headerPart).\(payloadPart)".utf8)
        return "\(headerPart).\(payloadPart).\(Self.base64URL(try signature(of: input)))"
    }

    /// The raw JWS signature of `input`: PKCS #1 v1.5 for RS256, r || s for ES256.
    public func signature(of input: Data) throws -> Data {
        guard let context = EVP_MD_CTX_new() else { throw Self.failure("cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw Self.failure("cannot start signing") }
        var length = 0
        let bytes = [UInt8](input)
        guard EVP_DigestSign(context, nil, &length, bytes, bytes.count) == 1 else { throw Self.failure("cannot size the signature") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, bytes, bytes.count) == 1 else { throw Self.failure("signing failed") }
        let der = Data(signature.prefix(length))
        return algorithm == .es256 ? try Self.rawECDSA(der) : der
    }

    private static func generate(_ algorithm: JWSAlgorithm) throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm == .rs256 ? clibcrypto_key_type_rsa() : clibcrypto_key_type_ec(), nil) else {
            throw failure("cannot create a key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw failure("cannot start key generation") }
        switch algorithm {
        case .rs256: guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1 else { throw failure("cannot set the RSA size") }
        case .es256: guard EVP_PKEY_CTX_set_group_name(context, clibcrypto_curve_p256()) == 1 else { throw failure("cannot set the curve") }
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw failure("key generation failed") }
        return key
    }

    private static func bignumParameter(_ key: OpaquePointer, _ name: String, width: Int?) throws -> Data {
        var value: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &value) == 1, let value else { throw failure("cannot read key parameter \(name)") }
        defer { BN_free(value) }
        return try binary(of: value, width: width)
    }

    private static func binary(of number: OpaquePointer, width: Int?) throws -> Data {
        let size = width ?? Int((BN_num_bits(number) + 7) / 8)
        var buffer = [UInt8](repeating: 0, count: size)
        guard BN_bn2binpad(number, &buffer, Int32(size)) == Int32(size) else { throw failure("cannot encode a key parameter") }
        return Data(buffer)
    }

    private static func rawECDSA(_ der: Data) throws -> Data {
        let bytes = [UInt8](der)
        let signature = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw failure("cannot decode the ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        guard let r, let s else { throw failure("the ECDSA signature is incomplete") }
        return try binary(of: r, width: 32) + binary(of: s, width: 32)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func failure(_ why: String) -> SessionError {
        SessionError(.cryptoFailure, process: .configuration, message: "test signing key: \(why)")
    }
}
#endif

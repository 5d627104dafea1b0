#if canImport(CLibCrypto)
import CLibCrypto
import Foundation
import SessionCore

/// A libcrypto private key (an `EVP_PKEY`) for RS256 (RSA 2048) or ES256 (P-256). The key is
/// `Locked`: made in `init`, used by one signature at a time, freed in `deinit`.
package final class LibCryptoPrivateKey: PrivateSigningKey {
    package let algorithm: JWSAlgorithm
    private let key: Locked<Handle>

    /// The `EVP_PKEY`, which this object alone owns.
    ///
    /// `@unchecked Sendable`: the pointer is used only inside the key's `Locked`, one call at a
    /// time, and freed once, in `deinit`.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    package init(algorithm: JWSAlgorithm) throws {
        self.algorithm = algorithm
        key = Locked(Handle(pointer: try Self.generate(algorithm)))
    }

    deinit {
        key.withLock { EVP_PKEY_free($0.pointer) }
    }

    package func publicKey() throws -> PublicKeyParameters {
        try key.withLock { handle in
            let key = handle.pointer
            return switch algorithm {
            case .rs256:
                .rsa(modulus: try Self.parameter(key, "n", width: nil), exponent: try Self.parameter(key, "e", width: nil))
            case .es256:
                .p256(x: try Self.parameter(key, "qx", width: 32), y: try Self.parameter(key, "qy", width: 32))
            }
        }
    }

    package func sign(_ message: Data) throws -> Data {
        let der = try key.withLock { try Self.digestSign(message, with: $0.pointer) }
        return algorithm == .es256 ? try Self.rawECDSA(der) : der
    }

    /// The signature libcrypto makes of `message` with `key` and SHA-256 (DER for ECDSA).
    private static func digestSign(_ message: Data, with key: OpaquePointer) throws -> Data {
        guard let context = EVP_MD_CTX_new() else { throw PlatformCrypto.failure("cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw PlatformCrypto.failure("cannot start signing") }
        var length = 0
        let bytes = [UInt8](message)
        guard EVP_DigestSign(context, nil, &length, bytes, bytes.count) == 1 else { throw PlatformCrypto.failure("cannot size the signature") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, bytes, bytes.count) == 1 else { throw PlatformCrypto.failure("signing failed") }
        return Data(signature.prefix(length))
    }

    private static func generate(_ algorithm: JWSAlgorithm) throws -> OpaquePointer {
        let type = algorithm == .rs256 ? clibcrypto_key_type_rsa() : clibcrypto_key_type_ec()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw PlatformCrypto.failure("cannot create a key context") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw PlatformCrypto.failure("cannot start key generation") }
        switch algorithm {
        case .rs256:
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1 else { throw PlatformCrypto.failure("cannot set the RSA size") }
        case .es256:
            guard EVP_PKEY_CTX_set_group_name(context, clibcrypto_curve_p256()) == 1 else { throw PlatformCrypto.failure("cannot set the curve") }
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw PlatformCrypto.failure("key generation failed") }
        return key
    }

    private static func parameter(_ key: OpaquePointer, _ name: String, width: Int?) throws -> Data {
        var value: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &value) == 1, let value else { throw PlatformCrypto.failure("cannot read key parameter \(name)") }
        defer { BN_free(value) }
        return try binary(of: value, width: width)
    }

    private static func binary(of number: OpaquePointer, width: Int?) throws -> Data {
        let size = width ?? Int((BN_num_bits(number) + 7) / 8)
        var buffer = [UInt8](repeating: 0, count: size)
        guard BN_bn2binpad(number, &buffer, Int32(size)) == Int32(size) else { throw PlatformCrypto.failure("cannot encode a key parameter") }
        return Data(buffer)
    }

    /// The DER `ECDSA-Sig-Value` libcrypto signs as r || s, the JWS form (RFC 7518 §3.4).
    private static func rawECDSA(_ der: Data) throws -> Data {
        let bytes = [UInt8](der)
        let signature = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw PlatformCrypto.failure("cannot decode the ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        guard let r, let s else { throw PlatformCrypto.failure("the ECDSA signature is incomplete") }
        return try binary(of: r, width: 32) + binary(of: s, width: 32)
    }
}
#endif

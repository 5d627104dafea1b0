#if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import Security

/// PlatformCrypto on Apple platforms: CryptoKit for SHA-256 and P-256, Security for the CSPRNG
/// and RSA. Untested: SessionService is built and tested on Linux, where libcrypto is used.
enum Backend {
    static func sha256(_ data: Data) throws -> Data {
        Data(SHA256.hash(data: data))
    }

    static func randomBytes(_ count: Int) throws -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        guard SecRandomCopyBytes(kSecRandomDefault, count, &bytes) == errSecSuccess else {
            throw PlatformCrypto.failure("the system random generator failed")
        }
        return Data(bytes)
    }

    static func verifyRS256(modulus: Data, exponent: Data, message: Data, signature: Data) throws -> Bool {
        // SecKey imports an RSA public key as the DER RSAPublicKey of PKCS #1: SEQUENCE { n, e }.
        let der = derSequence(derInteger(modulus) + derInteger(exponent))
        let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPublic]
        guard let key = SecKeyCreateWithData(der as CFData, attributes as CFDictionary, nil) else {
            throw PlatformCrypto.failure("the RSA key is not valid")
        }
        return SecKeyVerifySignature(key, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, signature as CFData, nil)
    }

    static func verifyES256(x: Data, y: Data, message: Data, rawSignature: Data) throws -> Bool {
        guard let key = try? P256.Signing.PublicKey(rawRepresentation: x + y) else {
            throw PlatformCrypto.failure("the EC key is not valid")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: rawSignature) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    private static func derLength(_ count: Int) -> Data {
        if count < 0x80 { return Data([UInt8(count)]) }
        var bytes = withUnsafeBytes(of: count.bigEndian) { Data($0) }.drop { $0 == 0 }
        bytes.insert(0x80 | UInt8(bytes.count), at: bytes.startIndex)
        return Data(bytes)
    }

    private static func derInteger(_ magnitude: Data) -> Data {
        var body = Data(magnitude.drop { $0 == 0 })
        if body.isEmpty || body[body.startIndex] & 0x80 != 0 { body.insert(0, at: body.startIndex) }
        return Data([0x02]) + derLength(body.count) + body
    }

    private static func derSequence(_ content: Data) -> Data {
        Data([0x30]) + derLength(content.count) + content
    }
}
#endif

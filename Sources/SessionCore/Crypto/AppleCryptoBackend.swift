#if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import Security

/// The Apple ``CryptoBackend``: CryptoKit for SHA-256 and P-256, Security for the CSPRNG and
/// RSA.
///
/// Never run: SessionService is built and tested on Linux. CI type-checks this file against
/// declarations transcribed from Apple's documentation (`Tests/AppleTypeCheck`).
package enum AppleCryptoBackend: CryptoBackend {
    package static func sha256(_ data: Data) throws -> Data {
        Data(SHA256.hash(data: data))
    }

    package static func randomBytes(_ count: Int) throws -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        guard SecRandomCopyBytes(kSecRandomDefault, count, &bytes) == errSecSuccess else {
            throw PlatformCrypto.failure("the system random generator failed")
        }
        return Data(bytes)
    }

    package static func sealAES256GCM(key: Data, nonce: Data, plaintext: Data, authenticating authenticatedData: Data) throws -> Data {
        guard key.count == 32 else { throw PlatformCrypto.failure("AES-256-GCM needs a 32-byte key") }
        do {
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: try AES.GCM.Nonce(data: nonce),
                                       authenticating: authenticatedData)
            return box.ciphertext + box.tag
        } catch {
            throw PlatformCrypto.failure("AES-GCM sealing failed")
        }
    }

    package static func openAES256GCM(key: Data, nonce: Data, sealed: Data, authenticating authenticatedData: Data) throws -> Data? {
        guard key.count == 32 else { throw PlatformCrypto.failure("AES-256-GCM needs a 32-byte key") }
        guard sealed.count >= 16, let box = try? AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: sealed.prefix(sealed.count - 16),
                                                                   tag: sealed.suffix(16)) else { return nil }
        return try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: authenticatedData)
    }

    package static func verifyRS256(modulus: Data, exponent: Data, message: Data, signature: Data) throws -> Bool {
        let der = RSAPublicKeyDER.encode(modulus: modulus, exponent: exponent)
        let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPublic]
        guard let key = SecKeyCreateWithData(der as CFData, attributes as CFDictionary, nil) else {
            throw PlatformCrypto.failure("the RSA key is not valid")
        }
        return SecKeyVerifySignature(key, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, signature as CFData, nil)
    }

    package static func verifyES256(x: Data, y: Data, message: Data, rawSignature: Data) throws -> Bool {
        guard let key = try? P256.Signing.PublicKey(rawRepresentation: x + y) else {
            throw PlatformCrypto.failure("the EC key is not valid")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: rawSignature) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
#endif

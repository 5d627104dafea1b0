import Foundation

/// An unencrypted PKCS #8 `PrivateKeyInfo` (RFC 5208 §5, RFC 5958 §2) for one of the algorithms
/// the core signs with: an RSA key (RS256) or a P-256 key (ES256). Read and checked here, on every
/// platform alike, before the platform's crypto library imports it, so that an unusable key file
/// gets the same clear error everywhere. Its messages never contain key material.
package struct PKCS8PrivateKey: Sendable {
    /// The algorithm the key signs with.
    package let algorithm: JWSAlgorithm
    /// The whole `PrivateKeyInfo`, DER.
    package let der: Data
    /// The `privateKey` octets: PKCS #1 `RSAPrivateKey` or SEC 1 `ECPrivateKey`, DER.
    package let privateKey: Data

    private static let label = "PRIVATE KEY"
    // The algorithm identifiers' DER content (RFC 8017 §A.1, RFC 5480 §2.1.1).
    private static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    private static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    private static let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// Reads the one `-----BEGIN PRIVATE KEY-----` block of `pem`.
    /// - Throws: ``SessionError`` `invalidConfiguration` for anything else, with what to do about
    ///   an encrypted key or a PKCS #1 / SEC 1 one.
    package init(pem: String) throws {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let beginnings = lines.filter { $0.hasPrefix("-----BEGIN ") }
        guard beginnings.count == 1, let begin = lines.firstIndex(of: beginnings[0]) else {
            throw Self.failure(beginnings.isEmpty ? "no PEM block was found" : "the PEM text holds \(beginnings.count) blocks; give one key")
        }
        switch beginnings[0] {
        case "-----BEGIN \(Self.label)-----":
            break
        case "-----BEGIN ENCRYPTED PRIVATE KEY-----":
            throw Self.failure("the key is encrypted; decrypt it first (openssl pkcs8 -in KEY -nocrypt -topk8 -out PLAIN) and keep the file private")
        case "-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----":
            throw Self.failure("the key is in PKCS #1 or SEC 1 form; convert it to PKCS #8 (openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY8)")
        default:
            throw Self.failure("the PEM block is not a private key")
        }
        guard let end = lines.firstIndex(of: "-----END \(Self.label)-----"), end > begin else {
            throw Self.failure("the PEM block has no END line")
        }
        guard let der = Data(base64Encoded: lines[(begin + 1)..<end].joined()) else {
            throw Self.failure("the PEM block is not base64")
        }
        try self.init(der: der)
    }

    /// Reads a DER `PrivateKeyInfo`.
    /// - Throws: ``SessionError`` `invalidConfiguration` for anything but an RSA or P-256 key.
    package init(der: Data) throws {
        var outer = DERReader(der) { Self.failure("the key is not PKCS #8 DER: \($0)") }
        var info = DERReader(try outer.element(tag: DERReader.Tag.sequence)) { Self.failure("the key is not PKCS #8 DER: \($0)") }
        guard outer.isAtEnd else { throw Self.failure("bytes follow the PKCS #8 key") }
        let version = try info.unsignedInteger()
        // v1 (0) or, from RFC 5958, v2 (1) with the public key attached.
        guard version.count <= 1, (version.first ?? 0) <= 1 else { throw Self.failure("the PKCS #8 version is unknown") }
        var identifier = DERReader(try info.element(tag: DERReader.Tag.sequence)) { Self.failure("the key's algorithm is unreadable: \($0)") }
        let oid = try identifier.element(tag: DERReader.Tag.objectIdentifier)
        if oid == Self.rsaEncryption {
            // The parameters are NULL (RFC 8017 §A.1); some encoders omit them.
            if !identifier.isAtEnd { _ = try identifier.element(tag: DERReader.Tag.null) }
            algorithm = .rs256
        } else if oid == Self.ecPublicKey {
            guard identifier.nextTag == DERReader.Tag.objectIdentifier,
                  try identifier.element(tag: DERReader.Tag.objectIdentifier) == Self.prime256v1 else {
                throw Self.failure("the EC key is not on P-256, the curve ES256 uses")
            }
            algorithm = .es256
        } else {
            throw Self.failure("the key is neither RSA nor EC (P-256); RS256 and ES256 are supported")
        }
        guard identifier.isAtEnd else { throw Self.failure("the key's algorithm has extra fields") }
        let privateKey = try info.element(tag: DERReader.Tag.octetString)
        guard !privateKey.isEmpty else { throw Self.failure("the private key is empty") }
        self.der = der
        self.privateKey = Data(privateKey)
    }

    /// The `PrivateKeyInfo` of a PKCS #1 `RSAPrivateKey` (`pkcs1`, DER): the form Security
    /// exports RSA keys in, wrapped as key files hold them.
    package static func wrapRSA(_ pkcs1: Data) -> Data {
        let identifier = DERWriter.element(DERReader.Tag.sequence,
                                           DERWriter.element(DERReader.Tag.objectIdentifier, rsaEncryption) + DERWriter.element(DERReader.Tag.null, []))
        return DERWriter.element(DERReader.Tag.sequence,
                                 DERWriter.unsignedInteger(Data()) + identifier + DERWriter.element(DERReader.Tag.octetString, pkcs1))
    }

    private static func failure(_ why: String) -> SessionError {
        SessionError(.invalidConfiguration, process: .configuration, message: "private key: \(why)")
    }
}

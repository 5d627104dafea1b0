import Foundation

/// The DER form of PKCS #1's `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`
/// (RFC 8017 §A.1.1), the form Apple's Security framework imports and exports RSA public keys in.
/// Platform-neutral so that it is tested where the package is tested.
package enum RSAPublicKeyDER {
    /// The DER encoding of the key (`modulus`, `exponent`), both big-endian magnitudes.
    package static func encode(modulus: Data, exponent: Data) -> Data {
        DERWriter.element(DERReader.Tag.sequence, DERWriter.unsignedInteger(modulus) + DERWriter.unsignedInteger(exponent))
    }

    /// The modulus and exponent of a DER `RSAPublicKey`, leading zero bytes removed.
    /// - Throws: ``SessionError`` `cryptoFailure` for anything but exactly one such structure.
    package static func decode(_ der: Data) throws -> (modulus: Data, exponent: Data) {
        var reader = DERReader(der, failure: failure)
        let body = try reader.element(tag: DERReader.Tag.sequence)
        guard reader.isAtEnd else { throw failure("bytes follow the RSA public key") }
        var fields = DERReader(body) { failure("the RSA public key: \($0)") }
        let modulus = try fields.unsignedInteger()
        let exponent = try fields.unsignedInteger()
        guard fields.isAtEnd else { throw failure("the RSA public key has extra fields") }
        return (modulus, exponent)
    }

    private static func failure(_ why: String) -> SessionError {
        SessionError(.cryptoFailure, process: .authentication, message: why)
    }
}

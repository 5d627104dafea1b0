#if canImport(CLibCrypto)
import SessionCore

/// The core generates and exports keys (``LibCryptoPrivateKey/init(generating:)``,
/// ``LibCryptoPrivateKey/pkcs8DER()``); tests write them to key files.
extension LibCryptoPrivateKey: PKCS8Exportable {}
#endif

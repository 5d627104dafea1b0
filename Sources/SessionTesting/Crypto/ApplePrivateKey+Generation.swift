#if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
import SessionCore

/// The core generates and exports keys (``ApplePrivateKey/init(generating:)``,
/// ``ApplePrivateKey/pkcs8DER()``); tests write them to key files.
extension ApplePrivateKey: PKCS8Exportable {}
#endif

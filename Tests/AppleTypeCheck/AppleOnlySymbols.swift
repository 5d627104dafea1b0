// Compiled into SessionCore by the Apple type-check only. It names every symbol of the
// Apple-only files, so the check fails if one of them was left out (an #if that no flavour
// enables would otherwise pass unnoticed).
import Foundation

private func appleOnlySymbolsAreCompiled(configuration: SessionConfiguration) {
    let _: AppleCryptoBackend.Type = PlatformCryptoBackend.self
    let _: (PKCS8PrivateKey) throws -> ApplePrivateKey = ApplePrivateKey.init
    let _: (JWSAlgorithm) throws -> ApplePrivateKey = ApplePrivateKey.init(generating:)
    let _: (ApplePrivateKey) -> () throws -> Data = ApplePrivateKey.pkcs8DER
    let _: any KeychainItems = SecItemKeychain()
    let _: any LocalTokenStore = KeychainTokenStore(configuration: configuration)
    let _: any AccountStore = KeychainAccountStore(configuration: configuration)
    let _: any AccountStore = (try? PlatformDefaults.accountStore(for: configuration)) ?? KeychainAccountStore(configuration: configuration, accessGroup: "group")
}

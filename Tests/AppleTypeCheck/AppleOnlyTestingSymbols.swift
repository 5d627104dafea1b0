// Compiled into SessionTesting by the Apple type-check only, for the reason
// AppleOnlySymbols.swift gives: every Apple-only symbol of the module is named here.
import SessionCore

private func appleOnlyTestingSymbolsAreCompiled() throws {
    let _: any PrivateSigningKey & PKCS8Exportable = try ApplePrivateKey(generating: .es256)
}

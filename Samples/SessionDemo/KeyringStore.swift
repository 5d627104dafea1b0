import SessionCore
import SessionKeyring

/// The store `--store keyring` asks for: the desktop keyring through the Secret Service where
/// SessionKeyring has it (Linux); on Apple platforms, where the keychain is the keyring, the default store.
func keyringStore(_ configuration: SessionConfiguration) -> TokenStore {
    #if canImport(CLibSecret)
    SecretServiceTokenStore(configuration: configuration)
    #else
    (try? PlatformDefaults.tokenStore(for: configuration)) ?? InMemoryTokenStore()
    #endif
}

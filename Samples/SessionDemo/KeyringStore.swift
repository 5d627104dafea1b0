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

/// The accounts `--interactive --store keyring` keeps: in the desktop keyring where SessionKeyring
/// has it (Linux); on Apple platforms, the default account store.
func keyringAccountStore(_ configuration: SessionConfiguration) -> AccountStore {
    #if canImport(CLibSecret)
    SecretServiceAccountStore(configuration: configuration)
    #else
    (try? PlatformDefaults.accountStore(for: configuration)) ?? InMemoryAccountStore()
    #endif
}

#if canImport(Security)
import Foundation
import Security

/// ``KeychainItems`` on the Security framework's `SecItem` functions: a generic-password item
/// found by service, account and access group. On macOS this is the login keychain, which
/// needs no entitlement, so command-line tools can use it too.
///
/// Type-checked in CI against declarations transcribed from Apple's documentation; never run.
package struct SecItemKeychain: KeychainItems {
    package init() {}

    package func add(_ item: KeychainItem, data: Data) -> KeychainStatus {
        var attributes = query(item)
        attributes[kSecValueData] = data
        attributes[kSecAttrAccessible] = item.accessibility.attribute
        return KeychainStatus(rawValue: SecItemAdd(attributes as CFDictionary, nil))
    }

    package func update(_ item: KeychainItem, data: Data) -> KeychainStatus {
        let changes: [CFString: Any] = [kSecValueData: data, kSecAttrAccessible: item.accessibility.attribute]
        return KeychainStatus(rawValue: SecItemUpdate(query(item) as CFDictionary, changes as CFDictionary))
    }

    package func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?) {
        var search = query(item)
        search[kSecReturnData] = true
        search[kSecMatchLimit] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        return (KeychainStatus(rawValue: status), result as? Data)
    }

    package func delete(_ item: KeychainItem) -> KeychainStatus {
        KeychainStatus(rawValue: SecItemDelete(query(item) as CFDictionary))
    }

    package func accounts(service: String, accessGroup: String?) -> (status: KeychainStatus, accounts: [String]) {
        var search: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service,
                                       kSecReturnAttributes: true, kSecMatchLimit: kSecMatchLimitAll]
        if let accessGroup { search[kSecAttrAccessGroup] = accessGroup }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        let found = (result as? [[String: Any]] ?? []).compactMap { $0[kSecAttrAccount as String] as? String }
        return (KeychainStatus(rawValue: status), found)
    }

    private func query(_ item: KeychainItem) -> [CFString: Any] {
        var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: item.service, kSecAttrAccount: item.account]
        if let group = item.accessGroup { query[kSecAttrAccessGroup] = group }
        return query
    }
}

extension KeychainAccessibility {
    /// The `kSecAttrAccessible` value.
    var attribute: CFString {
        switch self {
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}

extension KeychainTokenStore {
    /// A store for `configuration`'s issuer and client in the app's keychain. Its logic is tested
    /// on Linux against a fake keychain; the keychain calls themselves have never run.
    /// - Parameters:
    ///   - service: the items' service (default ``defaultService``).
    ///   - accessibility: when the item can be read (default: after the first unlock, on this
    ///     device only, so background refreshes can save).
    ///   - accessGroup: a keychain access group shared with other apps of the team.
    public init(configuration: SessionConfiguration, service: String = Self.defaultService,
                accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, accessGroup: String? = nil) {
        self.init(configuration: configuration, service: service, accessibility: accessibility, accessGroup: accessGroup,
                  items: SecItemKeychain())
    }
}

extension KeychainAccountStore {
    /// The accounts of `configuration`'s issuer and client in the app's keychain, with the
    /// parameters of ``KeychainTokenStore/init(configuration:service:accessibility:accessGroup:)``.
    /// Its logic is tested on Linux against a fake keychain; the keychain calls themselves have
    /// never run.
    public init(configuration: SessionConfiguration, service: String = KeychainTokenStore.defaultService,
                accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, accessGroup: String? = nil) {
        self.init(configuration: configuration, service: service, accessibility: accessibility, accessGroup: accessGroup,
                  items: SecItemKeychain())
    }
}
#endif

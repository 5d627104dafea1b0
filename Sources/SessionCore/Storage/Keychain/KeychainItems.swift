import Foundation

/// The keychain as ``KeychainTokenStore`` uses it: one generic-password item per session, and the
/// four `SecItem` calls with their documented results. `SecItemKeychain` is the real one (Apple
/// platforms only); tests drive the store through a fake with the same semantics.
package protocol KeychainItems: Sendable {
    /// `SecItemAdd` of `item` holding `data`; `duplicateItem` when it exists.
    func add(_ item: KeychainItem, data: Data) -> KeychainStatus
    /// `SecItemUpdate` of `item`'s data and accessibility; `itemNotFound` when it does not exist.
    func update(_ item: KeychainItem, data: Data) -> KeychainStatus
    /// `SecItemCopyMatching` of `item`'s data (one match); `itemNotFound` when it does not exist.
    func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?)
    /// `SecItemDelete` of `item`; `itemNotFound` when it does not exist.
    func delete(_ item: KeychainItem) -> KeychainStatus
    /// `SecItemCopyMatching` of the accounts of every generic-password item of `service` in
    /// `accessGroup` (all matches, attributes only); `itemNotFound` when there is none.
    func accounts(service: String, accessGroup: String?) -> (status: KeychainStatus, accounts: [String])
}

/// The generic-password item a session lives in: found by `service` and `account` (and the
/// access group when one is set), protected by `accessibility`.
package struct KeychainItem: Sendable, Hashable {
    /// `kSecAttrService`.
    package var service: String
    /// `kSecAttrAccount`.
    package var account: String
    /// `kSecAttrAccessGroup`, or nil for the app's default group.
    package var accessGroup: String?
    /// `kSecAttrAccessible`, written on add and update; not part of the lookup.
    package var accessibility: KeychainAccessibility

    /// The item `service`/`account` in `accessGroup`.
    package init(service: String, account: String, accessGroup: String?, accessibility: KeychainAccessibility) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.accessibility = accessibility
    }
}

/// A Security framework result code (`OSStatus`), with the values the store tells apart.
package struct KeychainStatus: RawRepresentable, Hashable, Sendable {
    package var rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `errSecSuccess`.
    package static let success = KeychainStatus(rawValue: 0)
    /// `errSecItemNotFound`.
    package static let itemNotFound = KeychainStatus(rawValue: -25300)
    /// `errSecDuplicateItem`.
    package static let duplicateItem = KeychainStatus(rawValue: -25299)
    /// `errSecInteractionNotAllowed`: the item's accessibility class forbids access now (the
    /// device is locked, or has not been unlocked since it started).
    package static let interactionNotAllowed = KeychainStatus(rawValue: -25308)
    /// `errSecMissingEntitlement`: the app is not signed with a keychain entitlement it needs.
    package static let missingEntitlement = KeychainStatus(rawValue: -34018)
}

extension KeychainStatus {
    /// The `storageFailed` error of this status while doing `what` on the item(s) at `location`,
    /// or nil for `success`. A locked keychain and a missing entitlement say so.
    func failure(_ what: String, location: String) -> SessionError? {
        let why: String
        switch self {
        case .success:
            return nil
        case .interactionNotAllowed:
            why = "\(what): the keychain is locked (errSecInteractionNotAllowed); the item is readable after the device is unlocked"
        case .missingEntitlement:
            why = "\(what): the app lacks the keychain entitlement it needs (errSecMissingEntitlement)"
        default:
            why = "\(what): keychain status \(rawValue)"
        }
        return SessionError(.storageFailed, process: .configuration, message: "\(why) (\(location))")
    }
}

import Foundation
import SessionCore

/// For tests of the keychain code (on Linux, where there is no keychain): a keychain in memory that answers as Security's `SecItem` functions do: adding an existing
/// item is `duplicateItem`; updating, reading or deleting a missing one is `itemNotFound`; while
/// `locked`, every call is `interactionNotAllowed` and changes nothing.
package final class SecItemSemanticsKeychain: KeychainItems {
    package init() {}

    package struct Key: Hashable {
        package var service: String
        package var account: String
        package var accessGroup: String?

        package init(service: String, account: String, accessGroup: String? = nil) {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
        }
    }

    package struct Entry: Equatable {
        package var data: Data
        package var accessibility: KeychainAccessibility
    }

    private struct Contents {
        var items: [Key: Entry] = [:]
        var failure: KeychainStatus?
        var calls: [String] = []
        /// Deletes the item right after the next `add` reports a duplicate, as another process might.
        var deleteAfterNextDuplicate = false
    }

    private let contents = Locked(Contents())

    /// What is stored, by item.
    package var items: [Key: Entry] { contents.withLock { $0.items } }
    /// The calls made, in order: "add", "update", "copy", "delete", "list".
    package var calls: [String] { contents.withLock { $0.calls } }

    /// Makes every call answer `status` (nil: answer normally).
    package func failEveryCall(with status: KeychainStatus?) { contents.withLock { $0.failure = status } }
    package func deleteAfterNextDuplicate() { contents.withLock { $0.deleteAfterNextDuplicate = true } }
    /// Puts `data` in an item directly, as another app or an older version might have.
    package func plant(_ data: Data, service: String, account: String) {
        contents.withLock { $0.items[Key(service: service, account: account)] = Entry(data: data, accessibility: .whenUnlocked) }
    }

    private func key(_ item: KeychainItem) -> Key {
        Key(service: item.service, account: item.account, accessGroup: item.accessGroup)
    }

    package func add(_ item: KeychainItem, data: Data) -> KeychainStatus {
        contents.withLock { state in
            state.calls.append("add")
            if let failure = state.failure { return failure }
            guard state.items[key(item)] == nil else {
                if state.deleteAfterNextDuplicate {
                    state.deleteAfterNextDuplicate = false
                    state.items[key(item)] = nil
                }
                return .duplicateItem
            }
            state.items[key(item)] = Entry(data: data, accessibility: item.accessibility)
            return .success
        }
    }

    package func update(_ item: KeychainItem, data: Data) -> KeychainStatus {
        contents.withLock { state in
            state.calls.append("update")
            if let failure = state.failure { return failure }
            guard state.items[key(item)] != nil else { return .itemNotFound }
            state.items[key(item)] = Entry(data: data, accessibility: item.accessibility)
            return .success
        }
    }

    package func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?) {
        contents.withLock { state in
            state.calls.append("copy")
            if let failure = state.failure { return (failure, nil) }
            guard let entry = state.items[key(item)] else { return (.itemNotFound, nil) }
            return (.success, entry.data)
        }
    }

    package func delete(_ item: KeychainItem) -> KeychainStatus {
        contents.withLock { state in
            state.calls.append("delete")
            if let failure = state.failure { return failure }
            guard state.items.removeValue(forKey: key(item)) != nil else { return .itemNotFound }
            return .success
        }
    }

    package func accounts(service: String, accessGroup: String?) -> (status: KeychainStatus, accounts: [String]) {
        contents.withLock { state in
            state.calls.append("list")
            if let failure = state.failure { return (failure, []) }
            let found = state.items.keys.filter { $0.service == service && $0.accessGroup == accessGroup }.map(\.account).sorted()
            return (found.isEmpty ? .itemNotFound : .success, found)
        }
    }
}

import SessionCore
import SessionPermissions

/// Which identifiers a permission call asks for: `TPID`, `SYNC_ID`, `ETPID` (netID's cases and
/// raw values).
public typealias NetIdIdentifierOption = SessionPermissions.IdentifierOption

extension IdentifierOption {
    /// The identifiers netID puts in `q.identifier.in`: exactly `fetchOptions` when there are
    /// any (`collapseSyncId` is then ignored), otherwise `TPID`, with `SYNC_ID` as well when
    /// `collapseSyncId` is false.
    static func netIdSelection(collapseSyncId: Bool, fetchOptions: Set<IdentifierOption>) -> Set<IdentifierOption> {
        guard fetchOptions.isEmpty else { return fetchOptions }
        return collapseSyncId ? [.tagProtocolIdentifier] : [.tagProtocolIdentifier, .synchronizationIdentifier]
    }
}

import Foundation

/// What a shared store's session says of the one a client holds, read under the store's lock or on
/// a later look: nothing changed, another process refreshed it, a refresh elsewhere left its mark,
/// another account took the store, or the session is gone from it.
enum StoredSessionChange {
    /// The store holds the tokens the client holds.
    case none
    /// This account's tokens, rotated by another process.
    case refreshed(SessionTokens)
    /// This account's session, marked by a refresh or revocation under way (or interrupted) elsewhere.
    case marked(SessionTokens)
    /// Another account's session: after a logout and a login as someone else, this session is over.
    case otherAccount
    /// Nothing: another process ended the session.
    case ended

    /// The change from `held`, the tokens a client holds, to `stored`, what its store holds now.
    init(stored: SessionTokens?, held: SessionTokens) {
        guard let stored else { self = .ended; return }
        if !stored.isSameAccount(as: held) {
            self = .otherAccount
        } else if stored.inFlight != nil {
            self = .marked(stored)
        } else {
            self = stored.holdsSameTokens(as: held) ? .none : .refreshed(stored)
        }
    }
}

extension SessionTokens {
    /// True when both hold the same access and refresh token, byte for byte.
    func holdsSameTokens(as other: SessionTokens) -> Bool {
        Exact.equal(accessToken, other.accessToken) && Exact.equal(refreshToken, other.refreshToken)
    }

    /// True when both are one account's sessions: the same subject, byte for byte (a store belongs
    /// to one issuer and client), or no subject on either side to tell them apart by.
    func isSameAccount(as other: SessionTokens) -> Bool {
        guard let subject, let second = other.subject else { return subject == nil && other.subject == nil }
        return Exact.equal(subject, second)
    }
}

import Foundation
import SessionCore

/// What a store keeps of one browser's session besides its tokens: whose it is, the provider's
/// session it belongs to, and its times. Nothing in it lets a reader take the session over.
public struct WebSessionRecord: Sendable, Equatable {
    /// The session's ID: the digest of its cookie's identifier.
    public let id: WebSessionID
    /// The signed-in user (the ID token's `sub`); nil for a provider that gave no ID token.
    public let subject: String?
    /// The provider's session (the ID token's `sid`), which a back-channel logout names; nil when
    /// the provider gave none.
    public let providerSessionID: String?
    /// When the browser signed in.
    public let createdAt: Date
    /// When the session was last used, to within ``WebSessionOptions/touchInterval``.
    public var lastUsedAt: Date

    /// A record of the session `id`, signed in at `createdAt`.
    public init(id: WebSessionID, subject: String?, providerSessionID: String?, createdAt: Date, lastUsedAt: Date) {
        self.id = id
        self.subject = subject
        self.providerSessionID = providerSessionID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// True when the session has expired at `now`: idle for `idle` seconds, or older than `absolute`.
    func hasExpired(at now: Date, idle: TimeInterval, absolute: TimeInterval) -> Bool {
        now.timeIntervalSince(lastUsedAt) >= idle || now.timeIntervalSince(createdAt) >= absolute
    }
}

/// A web session taken out of its store, with the tokens it held then (nil when they were already
/// gone): what is left to revoke.
public struct RemovedWebSession: Sendable {
    /// The session's record.
    public let record: WebSessionRecord
    /// Its tokens as the store last held them.
    public let tokens: SessionTokens?

    /// A removed session and its last tokens.
    public init(record: WebSessionRecord, tokens: SessionTokens?) {
        self.record = record
        self.tokens = tokens
    }
}

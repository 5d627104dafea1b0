import Foundation
import SessionCore


/// YeboID for Swift's client, on SessionService's core: sign-in with PKCE S256 and exact
/// callback and `state` checks, tokens kept in the keychain (a 0600 file off Apple platforms),
/// refresh with rotation saved first, and sign-out that revokes before it clears.
///
/// Keep one instance per issuer and client for the app session. Mutating operations
/// (``signIn(agent:)``, ``refresh()``, ``signOut()``) are exclusive: one started while another
/// runs throws `operation_in_progress` — it is neither queued nor merged — so a refresh token is
/// never used twice at once. Reads (``tokens()``, ``userInfo()``) do not take part.
public final class YeboID: Sendable {
    /// YeboID's production issuer; its discovery document names the hosted login and API hosts.
    public static let productionIssuer = URL(constant: "https://api.yeboid.com")
    /// The scopes a sign-in asks for: `openid profile offline_access`.
    public static let defaultScopes = ["openid", "profile", "offline_access"]

    let client: SessionClient
    let store: YeboIDStore
    private let busy = Locked(false)

    /// A client of YeboID's production service (``productionIssuer``) with the default store.
    /// - Throws: `invalid_redirect_uri` unless `redirectURI` is a custom-scheme URI such as
    ///   `com.yourcompany.yourapp://oauth/callback` (http and https callbacks are refused, as
    ///   YeboID refuses them); `invalid_configuration` for a client ID it cannot use.
    public convenience init(clientID: String, redirectURI: URL) throws {
        try self.init(issuer: Self.productionIssuer, clientID: clientID, redirectURI: redirectURI, store: nil)
    }

    /// A client of the YeboID deployment at `issuer` (another environment, or a test provider).
    /// - Parameters:
    ///   - issuer: the deployment's issuer; its endpoints come from its discovery document.
    ///   - clientID: the app's public client ID.
    ///   - redirectURI: the app's private-use or claimed https redirect URI.
    ///   - scopes: the scopes to ask for (default: `openid`, `profile`, `offline_access`).
    ///   - store: where the session is kept; nil: the keychain on Apple platforms, a 0600 file
    ///     under `$XDG_DATA_HOME` elsewhere, both named after the issuer and client.
    ///   - transport: how requests are sent (default: SessionService's own).
    /// - Throws: as ``init(clientID:redirectURI:)``; `storage_failed` when the default store
    ///   has no place to live.
    public init(issuer: URL, clientID: String, redirectURI: URL, scopes: [String] = YeboID.defaultScopes,
                store: YeboIDTokenStore?, transport: HTTPTransport = PlatformDefaults.httpTransport()) throws {
        guard let scheme = redirectURI.scheme?.lowercased(), scheme != "http", scheme != "https" else {
            throw YeboIDError("invalid_redirect_uri")
        }
        let configuration: SessionConfiguration
        do {
            configuration = try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: redirectURI,
                                                     scopes: scopes.filter { $0 != "openid" })
            if let store {
                self.store = .app(AppStore(store: store, codec: StoredSessionCodec(configuration: configuration,
                                                                                     location: "the app's YeboIDTokenStore")))
            } else {
                self.store = .local(try Self.defaultStore(for: configuration))
            }
        } catch let error as SessionError {
            throw YeboIDError(error)
        }
        client = SessionClient(configuration: configuration, store: self.store.tokenStore, transport: transport)
    }

    /// The stored tokens, read now; nil when signed out. Never refreshes: when ``YeboIDTokens/expiresAt``
    /// has passed, call ``refresh()`` before the next request. During this instance's own refresh
    /// or sign-out they are the tokens before it; a session an earlier run left mid-refresh (its
    /// refresh token possibly spent) reads as none, so the app signs in afresh.
    /// - Throws: `storage_failed` or `storage_corrupt` when the store cannot be read.
    public func tokens() throws -> YeboIDTokens? {
        do {
            guard let stored = try store.loadNow() else { return nil }
            if stored.inFlight != nil, !busy.value { return nil }
            return YeboIDTokens(stored)
        } catch let error as SessionError {
            throw YeboIDError(error)
        }
    }

    /// Signs in through `agent` — SessionLoopback's `LoopbackBrowserAgent` in a command-line
    /// tool, a test's headless agent, or the web-authentication agent — and stores the tokens.
    /// - Throws: `operation_in_progress`; `user_cancelled`; the provider's error such as
    ///   `access_denied`; `offline`; `storage_failed`; an ID-token refusal (`id_token_...`).
    public func signIn(agent: AuthorizationAgent) async throws -> YeboIDTokens {
        try await exclusively {
            YeboIDTokens(try await client.signIn(agent: agent))
        }
    }

    /// The UserInfo claims of the signed-in user, as JSON values (`String`, `Bool`, `Double`,
    /// arrays, dictionaries, `NSNull`). Read `sub` from here; keep only it in product databases.
    /// - Throws: `not_authenticated`; `reauthentication_required` when the session can no longer
    ///   be refreshed; `invalid_token`; `offline`.
    public func userInfo() async throws -> sending [String: Any] {
        do {
            let info = try await client.userInfo()
            return info.claims.mapValues(Self.plain)
        } catch let error as SessionError {
            throw YeboIDError(error)
        }
    }

    /// Refreshes the tokens now. The rotated refresh token is saved before this returns; a
    /// refresh is never retried, and when its outcome is unknown (the answer or the save failed
    /// after the provider may have rotated) the session is cleared and a fresh sign-in is
    /// required rather than replaying the old refresh token.
    /// - Throws: `operation_in_progress`; `reauthentication_required`; `offline` (the session is
    ///   kept); `storage_failed`.
    public func refresh() async throws -> YeboIDTokens {
        try await exclusively {
            YeboIDTokens(try await client.refresh())
        }
    }

    /// Revokes the refresh token at the provider, then clears the store. A failed revocation
    /// keeps the local session and throws. It does not end the browser's single sign-on session.
    /// - Throws: `operation_in_progress`; `offline` and other revocation errors (the session is kept).
    public func signOut() async throws {
        try await exclusively {
            try await client.signOut(revokeTokens: true)
        }
    }

    private func exclusively<T>(_ body: () async throws -> T) async throws -> T {
        let started = busy.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard started else { throw YeboIDError("operation_in_progress") }
        defer { busy.value = false }
        do {
            return try await body()
        } catch let error as SessionError {
            throw YeboIDError(error)
        }
    }

    /// YeboID's default: a keychain item named after the issuer and client, readable only while
    /// the device is unlocked, on Apple platforms; the 0600 file elsewhere.
    private static func defaultStore(for configuration: SessionConfiguration) throws -> any LocalTokenStore {
        #if canImport(Security)
        KeychainTokenStore(configuration: configuration, accessibility: .whenUnlockedThisDeviceOnly)
        #else
        try FileTokenStore(configuration: configuration)
        #endif
    }

    private static func plain(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(let number): number
        case .string(let text): text
        case .array(let items): items.map(plain)
        case .object(let members): members.mapValues(plain)
        }
    }
}

import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade

/// Where GrabID's SDK kept a login session's tokens: one keychain item per token (generic
/// password, service = the client ID, account = `<name>.<scope in lower case>`, the token as UTF-8
/// text), named `accessToken`, `idToken` and `refreshToken`, with `tokenId` and `partnerUserId`
/// beside them (grabplatform-sdk-ios 1.0.6: KeychainTokenWrapper.swift; GrabIdPartnerLogin.swift
/// lines 675–746; IdTokenInfo.swift lines 93–128). A login session carries them over the first
/// time its service finds none of its own, unless ``GrabIdPartner/carriesOverLegacySession`` is false.
///
/// GrabID kept no issuer with the tokens: they belong to the provider of the login session's
/// service-discovery URL, the one configured now, and to its client ID and scope.
public struct GrabIdLegacySession: LegacySessionSource {
    /// The token names GrabID's keychain items carry, before the scope.
    static let tokenNames = (access: "accessToken", id: "idToken", refresh: "refreshToken")
    /// The ID-token information GrabID kept beside them; removed with them.
    static let infoNames = ["tokenId", "partnerUserId"]

    private let keychain: (any KeychainItems)?
    /// The login session's client ID: the items' service.
    public let clientID: String
    /// The login session's scope, as GrabID keyed the items (lower-cased).
    public let scope: String
    /// The provider the tokens are taken as issued by.
    public let issuer: URL?

    /// The items of `clientID` and `scope` in the keychain (on Apple platforms; there is no
    /// keychain elsewhere, so nothing to carry over), taken as issued by `issuer`.
    public init(clientID: String, scope: String, issuer: URL?) {
        self.init(keychain: Self.platformKeychain, clientID: clientID, scope: scope, issuer: issuer)
    }

    /// The keychain on Apple platforms; nil elsewhere.
    static var platformKeychain: (any KeychainItems)? {
        #if canImport(Security)
        SecItemKeychain()
        #else
        nil
        #endif
    }

    /// The items in `keychain` (tests use one in memory).
    package init(keychain: (any KeychainItems)?, clientID: String, scope: String, issuer: URL?) {
        self.keychain = keychain
        self.clientID = clientID
        self.scope = scope.lowercased()
        self.issuer = issuer
    }

    /// Names the storage in log lines.
    public var name: String { "GrabID's keychain items of client \(clientID)" }

    private func item(_ name: String) -> KeychainItem {
        KeychainItem(service: clientID, account: "\(name).\(scope)", accessGroup: nil, accessibility: .whenUnlocked)
    }

    private func read(_ name: String) throws -> String? {
        guard let keychain else { return nil }
        let (status, data) = keychain.copyData(item(name))
        if status == .itemNotFound { return nil }
        guard status == .success, let data else {
            throw SessionError(.storageFailed, process: .configuration, message: "the keychain answered \(status.rawValue)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw SessionError.unreadableLegacySession("a token is not UTF-8 text") }
        return text.isEmpty ? nil : text
    }

    /// The tokens, or nil when GrabID left no refresh token for this client and scope (an access
    /// token alone cannot be carried over: it would expire with nothing to renew it).
    public func legacySession() throws -> LegacySession? {
        guard let refreshToken = try read(Self.tokenNames.refresh) else { return nil }
        return LegacySession(issuer: issuer, clientID: clientID, refreshToken: refreshToken,
                             accessToken: try read(Self.tokenNames.access), idToken: try read(Self.tokenNames.id),
                             scopes: scope.split(separator: " ").map(String.init))
    }

    /// Deletes the token items and the ID-token information beside them, and the login session
    /// GrabID archived in the standard `UserDefaults` under `<client ID>.<scope>` (it holds the
    /// last code verifier and nonce), as GrabID's logout did.
    public func removeLegacySession() throws {
        guard let keychain else { return }
        let archivedLoginSession = "\(clientID).\(scope)"
        if UserDefaults.standard.object(forKey: archivedLoginSession) != nil { UserDefaults.standard.removeObject(forKey: archivedLoginSession) }
        for name in [Self.tokenNames.access, Self.tokenNames.id, Self.tokenNames.refresh] + Self.infoNames {
            let status = keychain.delete(item(name))
            guard status == .success || status == .itemNotFound else {
                throw SessionError(.storageFailed, process: .configuration, message: "the keychain answered \(status.rawValue)")
            }
        }
    }
}

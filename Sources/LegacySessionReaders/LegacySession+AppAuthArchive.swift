import Foundation
import SessionCore

/// Reads an `OIDAuthState` that AppAuth for iOS archived with `NSKeyedArchiver` (as netID's SDK
/// and GTMAppAuth stored sessions), without AppAuth: the archive is read as data (``KeyedArchive``),
/// each object must carry the AppAuth class name expected where it is found, and only the keys
/// AppAuth's `encodeWithCoder:` methods write are read (AppAuth-iOS, Sources/AppAuthCore:
/// OIDAuthState.m, OIDTokenResponse.m, OIDAuthorizationResponse.m, OIDTokenRequest.m,
/// OIDAuthorizationRequest.m, OIDServiceConfiguration.m, OIDServiceDiscovery.m; GTMAppAuth 1.3:
/// GTMAppAuthFetcherAuthorization.m). Everything else in the archive is ignored.
extension LegacySession {
    /// The session in `data`, an archive whose root object is an `OIDAuthState`.
    /// - Throws: `SessionError.Code.storageCorrupt` when `data` is no such archive, or holds no
    ///   refresh token.
    public init(appAuthArchive data: Data) throws {
        let archive = try KeyedArchive(data)
        guard let state = archive.topObject("root", of: "OIDAuthState") else {
            throw SessionError.unreadableLegacySession("its root object is not an OIDAuthState")
        }
        self = try Self.session(of: state, in: archive)
    }

    /// The session in `data`, an archive whose root object is GTMAppAuth's
    /// `GTMAppAuthFetcherAuthorization` (its `authState` holds the `OIDAuthState`), as Google
    /// Sign-In kept it in its keychain item.
    /// - Throws: `SessionError.Code.storageCorrupt` as ``init(appAuthArchive:)``.
    public init(fetcherAuthorizationArchive data: Data) throws {
        let archive = try KeyedArchive(data)
        guard let authorization = archive.topObject("root", of: "GTMAppAuthFetcherAuthorization") else {
            throw SessionError.unreadableLegacySession("its root object is not a GTMAppAuthFetcherAuthorization")
        }
        guard let state = archive.object(authorization.fields["authState"], of: "OIDAuthState") else {
            throw SessionError.unreadableLegacySession("it holds no OIDAuthState under \"authState\"")
        }
        self = try Self.session(of: state, in: archive)
    }

    /// The session an `OIDAuthState` holds: its refresh token as AppAuth resolves it (its own, else
    /// the last token response's), the last tokens, and whose they are.
    private static func session(of state: KeyedArchive.Object, in archive: KeyedArchive) throws -> LegacySession {
        let unreadable = SessionError.unreadableLegacySession
        func nonEmpty(_ value: PropertyListValue?) -> String? {
            archive.string(value).flatMap { $0.isEmpty ? nil : $0 }
        }
        let tokenResponse = archive.object(state.fields["lastTokenResponse"], of: "OIDTokenResponse")
        let authorizationResponse = archive.object(state.fields["lastAuthorizationResponse"], of: "OIDAuthorizationResponse")
        let tokenRequest = archive.object(tokenResponse?.fields["request"], of: "OIDTokenRequest")
        let authorizationRequest = archive.object(authorizationResponse?.fields["request"], of: "OIDAuthorizationRequest")
        guard let refreshToken = nonEmpty(state.fields["refreshToken"]) ?? nonEmpty(tokenResponse?.fields["refresh_token"]) else {
            throw unreadable("it holds no refresh token")
        }
        let configuration = archive.object(tokenRequest?.fields["configuration"], of: "OIDServiceConfiguration")
            ?? archive.object(authorizationRequest?.fields["configuration"], of: "OIDServiceConfiguration")
        let discovery = archive.object(configuration?.fields["discoveryDocument"], of: "OIDServiceDiscovery")
        let discoveredIssuer = archive.strings(discovery?.fields["discoveryDictionary"])["issuer"].flatMap(URL.init(string:))
        let scope = nonEmpty(state.fields["scope"]) ?? nonEmpty(tokenResponse?.fields["scope"]) ?? nonEmpty(authorizationRequest?.fields["scope"])
        return LegacySession(
            issuer: archive.url(configuration?.fields["issuer"]) ?? discoveredIssuer,
            clientID: nonEmpty(tokenRequest?.fields["client_id"]) ?? nonEmpty(authorizationRequest?.fields["client_id"]),
            tokenEndpoint: archive.url(configuration?.fields["tokenEndpoint"]),
            refreshToken: refreshToken,
            accessToken: nonEmpty(tokenResponse?.fields["access_token"]) ?? nonEmpty(authorizationResponse?.fields["access_token"]),
            idToken: nonEmpty(tokenResponse?.fields["id_token"]) ?? nonEmpty(authorizationResponse?.fields["id_token"]),
            scopes: scope.map { $0.split(separator: " ").map(String.init) } ?? []
        )
    }
}

extension SessionError {
    /// The error for a legacy session that cannot be read, saying `why`: `storageCorrupt`, in the
    /// configuration process (a legacy session is carried over by `initialize`).
    public static func unreadableLegacySession(_ why: String) -> SessionError {
        SessionError(.storageCorrupt, process: .configuration, message: "the legacy session cannot be read: \(why)")
    }
}

/// The former spellings of ``LegacySession/init(appAuthArchive:)`` and its relatives.
@available(*, deprecated, message: "use LegacySession(appAuthArchive:), LegacySession(fetcherAuthorizationArchive:) and SessionError.unreadableLegacySession(_:)")
public enum AppAuthArchive {
    /// ``LegacySession/init(appAuthArchive:)``.
    public static func session(from data: Data) throws -> LegacySession { try LegacySession(appAuthArchive: data) }
    /// ``LegacySession/init(fetcherAuthorizationArchive:)``.
    public static func session(fromFetcherAuthorization data: Data) throws -> LegacySession {
        try LegacySession(fetcherAuthorizationArchive: data)
    }
    /// `SessionError.unreadableLegacySession(_:)`.
    public static func unreadable(_ why: String) -> SessionError { SessionError.unreadableLegacySession(why) }
}

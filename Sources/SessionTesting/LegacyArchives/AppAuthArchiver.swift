import Foundation

/// Writes sessions the way AppAuth for iOS archives an `OIDAuthState` (and GTMAppAuth its
/// `GTMAppAuthFetcherAuthorization`), for tests of carrying a legacy session over: every object
/// under AppAuth's class name, with the keys and value classes its `encodeWithCoder:` methods
/// write (AppAuth-iOS, Sources/AppAuthCore; GTMAppAuth 1.3, GTMAppAuthFetcherAuthorization.m).
/// A session that went through a code exchange, as netID's and Google's SDKs left them.
public struct AppAuthArchiver: Sendable {
    /// The issuer the service configuration names; nil leaves it out (AppAuth configured by
    /// endpoints alone), in which case ``discoveryIssuer`` may still name it.
    public var issuer: URL?
    /// The `issuer` member of the archived discovery document; nil archives no document.
    public var discoveryIssuer: URL?
    /// The authorization endpoint.
    public var authorizationEndpoint = URL(string: "https://op.example/authorize")!
    /// The token endpoint.
    public var tokenEndpoint = URL(string: "https://op.example/token")!
    /// The client ID of both requests.
    public var clientID: String
    /// The redirect URI of both requests.
    public var redirectURI = URL(string: "com.example.app:/callback")!
    /// The requested and granted scope, space-separated.
    public var scope = "openid profile"
    /// The last token response's tokens.
    public var accessToken = "legacy-access-token"
    /// The last token response's refresh token, which `OIDAuthState` also keeps on its own.
    public var refreshToken: String?
    /// The last token response's ID token.
    public var idToken: String?
    /// When the access token expires.
    public var accessTokenExpiration = Date(timeIntervalSince1970: 1_700_000_000)

    /// A session of `clientID` at `issuer` with `refreshToken`.
    public init(issuer: URL?, clientID: String, refreshToken: String?, idToken: String? = nil) {
        self.issuer = issuer
        discoveryIssuer = issuer
        self.clientID = clientID
        self.refreshToken = refreshToken
        self.idToken = idToken
    }

    /// The `OIDAuthState` archive as `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding:)`
    /// writes it (netID's `UserDefaults` value).
    public func authStateArchive() throws -> Data {
        try archive(root: authState())
    }

    /// The `GTMAppAuthFetcherAuthorization` archive GTMAppAuth keeps in its keychain item
    /// (Google Sign-In's `auth` item).
    public func fetcherAuthorizationArchive(userID: String, email: String) throws -> Data {
        try archive(root: ArchivedObject.named("GTMAppAuthFetcherAuthorization", fields: [
            ("authState", authState()),
            ("serviceProvider", "Google" as NSString),
            ("userID", userID as NSString),
            ("userEmail", email as NSString),
            ("userEmailIsVerified", "true" as NSString),
        ]))
    }

    /// Foundation's archive of `root`, its objects' classes renamed to AppAuth's (NSObject
    /// subclasses, as AppAuth's classes are). The class names are set afterwards because
    /// swift-corelibs-foundation's archiver ignores `setClassName(_:for:)`.
    private func archive(root: ArchivedObject) throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        let names = Dictionary(uniqueKeysWithValues: ArchivedObject.names.map { (NSStringFromClass(ArchivedObject.subclass(named: $0)), $0) })
        guard var archive = try PropertyListSerialization.propertyList(from: archiver.encodedData, options: [], format: nil) as? [String: Any],
              var objects = archive["$objects"] as? [Any] else {
            throw CocoaError(.coderInvalidValue)
        }
        for (index, object) in objects.enumerated() {
            guard var record = object as? [String: Any], let name = (record["$classname"] as? String).flatMap({ names[$0] }) else { continue }
            record["$classname"] = name
            record["$classes"] = [name, "NSObject"]
            objects[index] = record
        }
        archive["$objects"] = objects
        return try PropertyListSerialization.data(fromPropertyList: archive, format: .binary, options: 0)
    }

    private func authState() -> ArchivedObject {
        let configuration = ArchivedObject.named("OIDServiceConfiguration", fields: [
            ("authorizationEndpoint", authorizationEndpoint as NSURL),
            ("tokenEndpoint", tokenEndpoint as NSURL),
            ("issuer", issuer.map { $0 as NSURL }),
            ("registrationEndpoint", nil),
            ("discoveryDocument", discoveryIssuer.map { issuer in
                ArchivedObject.named("OIDServiceDiscovery", fields: [
                    ("discoveryDictionary", [
                        "issuer": issuer.absoluteString,
                        "authorization_endpoint": authorizationEndpoint.absoluteString,
                        "token_endpoint": tokenEndpoint.absoluteString,
                        "response_types_supported": ["code"],
                    ] as NSDictionary),
                ])
            }),
            ("endSessionEndpoint", nil),
        ])
        let authorizationRequest = ArchivedObject.named("OIDAuthorizationRequest", fields: [
            ("configuration", configuration),
            ("response_type", "code" as NSString),
            ("client_id", clientID as NSString),
            ("client_secret", nil),
            ("scope", scope as NSString),
            ("redirect_uri", redirectURI as NSURL),
            ("state", "legacy-state" as NSString),
            ("nonce", "legacy-nonce" as NSString),
            ("code_verifier", "legacy-code-verifier-legacy-code-verifier-43" as NSString),
            ("code_challenge", "legacy-code-challenge" as NSString),
            ("code_challenge_method", "S256" as NSString),
            ("additionalParameters", nil),
        ])
        let authorizationResponse = ArchivedObject.named("OIDAuthorizationResponse", fields: [
            ("code", "legacy-code" as NSString),
            ("state", "legacy-state" as NSString),
            ("access_token", nil),
            ("expires_in", nil),
            ("token_type", nil),
            ("id_token", nil),
            ("scope", nil),
            ("request", authorizationRequest),
            ("additionalParameters", NSDictionary()),
        ])
        let tokenRequest = ArchivedObject.named("OIDTokenRequest", fields: [
            ("configuration", configuration),
            ("grant_type", "authorization_code" as NSString),
            ("code", "legacy-code" as NSString),
            ("client_id", clientID as NSString),
            ("client_secret", nil),
            ("redirect_uri", redirectURI as NSURL),
            ("scope", nil),
            ("refresh_token", nil),
            ("code_verifier", "legacy-code-verifier-legacy-code-verifier-43" as NSString),
            ("additionalParameters", NSDictionary()),
            ("additionalHeaders", nil),
        ])
        let tokenResponse = ArchivedObject.named("OIDTokenResponse", fields: [
            ("access_token", accessToken as NSString),
            ("expires_in", accessTokenExpiration as NSDate),
            ("token_type", "Bearer" as NSString),
            ("id_token", idToken.map { $0 as NSString }),
            ("refresh_token", refreshToken.map { $0 as NSString }),
            ("scope", scope as NSString),
            ("request", tokenRequest),
            ("additionalParameters", NSDictionary()),
        ])
        return ArchivedObject.named("OIDAuthState", fields: [
            ("lastAuthorizationResponse", authorizationResponse),
            ("lastTokenResponse", tokenResponse),
            ("scope", scope as NSString),
            ("refreshToken", refreshToken.map { $0 as NSString }),
        ], needsTokenRefresh: false)
    }
}

/// One archived object: its fields in the order AppAuth encodes them. Each AppAuth class name has
/// a subclass of its own, since an archiver maps class names by class.
class ArchivedObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let fields: [(String, NSObject?)]
    let needsTokenRefresh: Bool?

    static let names = ["OIDAuthState", "OIDTokenResponse", "OIDAuthorizationResponse", "OIDTokenRequest", "OIDAuthorizationRequest",
                        "OIDServiceConfiguration", "OIDServiceDiscovery", "GTMAppAuthFetcherAuthorization"]

    static func subclass(named name: String) -> ArchivedObject.Type {
        switch name {
        case "OIDAuthState": ArchivedAuthState.self
        case "OIDTokenResponse": ArchivedTokenResponse.self
        case "OIDAuthorizationResponse": ArchivedAuthorizationResponse.self
        case "OIDTokenRequest": ArchivedTokenRequest.self
        case "OIDAuthorizationRequest": ArchivedAuthorizationRequest.self
        case "OIDServiceConfiguration": ArchivedServiceConfiguration.self
        case "OIDServiceDiscovery": ArchivedServiceDiscovery.self
        default: ArchivedFetcherAuthorization.self
        }
    }

    required init(fields: [(String, NSObject?)], needsTokenRefresh: Bool? = nil) {
        self.fields = fields
        self.needsTokenRefresh = needsTokenRefresh
    }

    /// An object archived under AppAuth's class name `name`.
    static func named(_ name: String, fields: [(String, NSObject?)], needsTokenRefresh: Bool? = nil) -> ArchivedObject {
        subclass(named: name).init(fields: fields, needsTokenRefresh: needsTokenRefresh)
    }

    required init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        for (key, value) in fields { coder.encode(value, forKey: key) }
        if let needsTokenRefresh { coder.encode(needsTokenRefresh, forKey: "needsTokenRefresh") }
    }
}

final class ArchivedAuthState: ArchivedObject {}
final class ArchivedTokenResponse: ArchivedObject {}
final class ArchivedAuthorizationResponse: ArchivedObject {}
final class ArchivedTokenRequest: ArchivedObject {}
final class ArchivedAuthorizationRequest: ArchivedObject {}
final class ArchivedServiceConfiguration: ArchivedObject {}
final class ArchivedServiceDiscovery: ArchivedObject {}
final class ArchivedFetcherAuthorization: ArchivedObject {}

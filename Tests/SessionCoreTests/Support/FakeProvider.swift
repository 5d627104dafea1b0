import Foundation
@testable import SessionCore
import SessionTesting

/// A provider for what LocalProvider will not do, because a real provider does not: ID tokens
/// crafted claim by claim or byte by byte (another subject on refresh, a member twice, a byte-order
/// mark), key sets and discovery documents built by hand, and token responses of any shape. It
/// stands behind the HTTPTransport boundary with discovery, JWKS, authorize (as an
/// AuthorizationAgent) and a token endpoint (code + PKCE, refresh) that issues those tokens; tests
/// bend it with `edit` and per-path `handlers`. Everything a real provider does — code exchange
/// as a provider checks it, rotation, UserInfo, revocation, the permission center — is tested
/// against LocalProvider over loopback.
///
/// `@unchecked Sendable`: every mutable member is read and written while holding `lock`.
final class FakeProvider: HTTPTransport, AuthorizationAgent, @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    static let issuer = URL(string: "https://op.example")!
    static let clientID = "client-1"
    static let redirectURI = URL(string: "com.example.app:/oauth/callback")!
    static let subject = "user-1"

    struct Settings {
        var discovery: [String: Any] = FakeProvider.defaultDiscovery()
        var handlers: [String: Handler] = [:]
        var editIDTokenClaims: (inout [String: Any]) -> Void = { _ in }
        var idTokenHeader: [String: Any] = [:]
        /// The ID token's header and payload as JSON text, for shapes a dictionary cannot make (a
        /// member twice, a byte-order mark); given the request's nonce and the time. Signed with ``key``.
        var craftIDToken: ((_ nonce: String, _ now: Double) -> (header: String, payload: String))?
    }

    private let lock = NSLock()
    private var settings = Settings()
    private var requests: [HTTPRequest] = []
    private var authorizeParameters: [String: String] = [:]
    private var codes: Set<String> = []
    private var liveRefreshTokens: Set<String> = []
    private var counter = 0
    let key: SigningKey
    let clock: ManualClock

    /// RSA key generation takes a noticeable time; tests share one key unless they ask for another.
    private static let sharedRSAKey = Result { try SigningKey(algorithm: .rs256, keyID: "key-1") }

    init(clock: ManualClock = ManualClock(), algorithm: JWSAlgorithm = .rs256) throws {
        self.clock = clock
        key = algorithm == .rs256 ? try Self.sharedRSAKey.get() : try SigningKey(algorithm: algorithm, keyID: "key-1")
    }

    static func defaultDiscovery() -> [String: Any] {
        let base = issuer.absoluteString
        return [
            "issuer": base,
            "authorization_endpoint": "\(base)/authorize",
            "token_endpoint": "\(base)/token",
            "jwks_uri": "\(base)/jwks",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        ]
    }

    func edit(_ change: (inout Settings) -> Void) { lock.withLock { change(&settings) } }
    var log: [HTTPRequest] { lock.withLock { requests } }
    func requests(to path: String) -> [HTTPRequest] { log.filter { $0.url.path == path } }
    /// The parameters of the last authorization request the agent saw.
    var lastAuthorization: [String: String] { lock.withLock { authorizeParameters } }

    static func configuration(scopes: [String] = [], skew: TimeInterval = 120) throws -> SessionConfiguration {
        try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: redirectURI, scopes: scopes, allowedClockSkew: skew)
    }

    // MARK: AuthorizationAgent

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let parameters = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        let callbackItems = lock.withLock { () -> [URLQueryItem] in
            authorizeParameters = parameters
            counter += 1
            let code = "code-\(counter)-secret"
            codes.insert(code)
            return [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: parameters["state"])]
        }
        var components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)!
        components.queryItems = callbackItems
        return components.url!
    }

    // MARK: HTTPTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let handler = lock.withLock { () -> Handler? in
            requests.append(request)
            return settings.handlers[request.url.path]
        }
        if let handler { return try await handler(request) }
        return try defaultResponse(request)
    }

    /// What the provider answers when no handler overrides the path; not recorded in the log.
    func defaultResponse(_ request: HTTPRequest) throws -> HTTPResponse {
        switch request.url.path {
        case "/.well-known/openid-configuration": return Self.json(lock.withLock { settings.discovery })
        case "/jwks": return HTTPResponse(status: 200, body: SigningKey.jwksDocument([key.publicJWK]))
        case "/token": return try token(request)
        default: return HTTPResponse(status: 404)
        }
    }

    static func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"],
                     body: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static func form(_ request: HTTPRequest) -> [String: String] {
        let text = String(decoding: request.body ?? Data(), as: UTF8.self)
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    func idToken(nonce: String?) throws -> String {
        let now = clock.now().timeIntervalSince1970
        var claims: [String: Any] = ["iss": Self.issuer.absoluteString, "sub": Self.subject, "aud": Self.clientID,
                                     "exp": now + 3600, "iat": now]
        if let nonce { claims["nonce"] = nonce }
        // netID's permission center takes the token this claim carries.
        if lock.withLock({ authorizeParameters["scope"] ?? "" }).split(separator: " ").contains("permission_management") {
            claims["permission_management"] = ["access_token": "permission-\(UUID().uuidString)-secret"]
        }
        let (edit, header, craft) = lock.withLock { (settings.editIDTokenClaims, settings.idTokenHeader, settings.craftIDToken) }
        if let craft {
            let (header, payload) = craft(nonce ?? "", now)
            let input = "\(Base64URL.encode(Data(header.utf8))).\(Base64URL.encode(Data(payload.utf8)))"
            return "\(input).\(Base64URL.encode(try key.signature(of: Data(input.utf8))))"
        }
        edit(&claims)
        return try key.sign(claims: claims, header: header)
    }

    private func token(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = Self.form(request)
        let invalidGrant = Self.json(["error": "invalid_grant", "error_description": "grant refused"], status: 400)
        switch form["grant_type"] {
        case "authorization_code":
            let (valid, challenge, nonce, scope) = lock.withLock {
                (codes.remove(form["code"] ?? "") != nil, authorizeParameters["code_challenge"], authorizeParameters["nonce"],
                 authorizeParameters["scope"] ?? "")
            }
            guard valid, let verifier = form["code_verifier"],
                  Self.challenge(verifier) == challenge, form["redirect_uri"] == Self.redirectURI.absoluteString else { return invalidGrant }
            // OIDC Core §3.1.2.1: an ID token only for a request with scope openid.
            let openID = scope.split(separator: " ").contains("openid")
            return Self.json(try issueTokens(idToken: openID ? idToken(nonce: nonce) : nil))
        case "refresh_token":
            guard lock.withLock({ liveRefreshTokens.remove(form["refresh_token"] ?? "") }) != nil else { return invalidGrant }
            return Self.json(try issueTokens(idToken: idToken(nonce: nil)))
        default:
            return Self.json(["error": "unsupported_grant_type"], status: 400)
        }
    }

    private func issueTokens(idToken: String?) throws -> [String: Any] {
        lock.withLock {
            counter += 1
            let refreshToken = "refresh-\(counter)-secret"
            liveRefreshTokens.insert(refreshToken)
            var body: [String: Any] = ["access_token": "access-\(counter)-secret", "token_type": "Bearer", "expires_in": 3600,
                                       "refresh_token": refreshToken]
            if let idToken { body["id_token"] = idToken }
            return body
        }
    }

    static func challenge(_ verifier: String) -> String {
        // PKCE.challenge itself is pinned to RFC 7636's vector in PKCETests.
        (try? PKCE.challenge(for: verifier)) ?? ""
    }
}

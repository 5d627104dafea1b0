import Foundation
import LoopbackHTTP
import SessionCore
import SessionPermissions

/// Answers the LocalProvider's HTTP requests: applies injected faults, logs, and routes to the
/// endpoint handlers (in the `LocalProviderEngine+...` files).
final class LocalProviderEngine: Sendable {
    typealias Endpoint = LocalProvider.Endpoint

    /// What the engine keeps: the provider's state, and its issuer and port once known.
    private struct Inner: Sendable {
        var state: LocalProviderState
        var issuerText = ""
        var port: UInt16 = 0
    }

    let options: LocalProvider.Options
    private let inner: Locked<Inner>
    /// Checks DPoP proofs, remembering their `jti`s.
    let proofCheck = DPoPProofCheck()
    /// The clients registered at `/register` (RFC 7591), with when each stops working; apart from
    /// the state, so a lookup never waits on the state's lock.
    let registeredClients = Locked<[String: (client: LocalProvider.Client, expiresAt: Date?)]>([:])

    init(options: LocalProvider.Options, key: SigningKey) {
        self.options = options
        var state = LocalProviderState(keys: LocalProviderKeyRing(key))
        for user in options.users {
            state.permissions[user.subject] = user.permissions
        }
        inner = Locked(Inner(state: state))
    }

    /// The state a previous run left in ``LocalProvider/Options/stateFile``, adopted; nil when
    /// there is none or it cannot be read (the provider then starts afresh).
    func restore() -> LocalProviderState.Persisted? {
        guard let file = options.stateFile, let data = try? Data(contentsOf: file),
              let persisted = try? JSONDecoder().decode(LocalProviderState.Persisted.self, from: data) else { return nil }
        inner.withLock { $0.state.adopt(persisted) }
        return persisted
    }

    /// Called once the port is known.
    func start(issuer: URL, port: UInt16) {
        inner.withLock { inner in
            inner.issuerText = issuer.absoluteString
            inner.port = port
            save(inner)
        }
    }

    var issuer: String { inner.withLock { $0.issuerText } }

    /// Runs `body` on the state while holding the lock, then saves it when there is a state file
    /// and what it keeps changed.
    func withState<T>(_ body: (inout LocalProviderState) throws -> T) rethrows -> T {
        try inner.withLock { inner in
            guard options.stateFile != nil else { return try body(&inner.state) }
            let before = inner.state.persisted(port: inner.port)
            defer { if inner.state.persisted(port: inner.port) != before { save(inner) } }
            return try body(&inner.state)
        }
    }

    /// Writes the state file. Called while holding the lock, so writes cannot overtake each other.
    private func save(_ inner: Inner) {
        guard let file = options.stateFile, inner.port != 0,
              let data = try? JSONEncoder().encode(inner.state.persisted(port: inner.port)) else { return }
        // It holds live tokens: readable by the owner only.
        if (try? data.write(to: file, options: .atomic)) != nil {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
    }

    func handle(_ request: HTTPServerRequest) -> HTTPServerReply {
        let endpoint = Endpoint(path: request.path)
        let items = request.queryItems + (request.method == "POST" ? request.formItems : [])
        let parameters = Self.firstValues(items)
        let (fault, arrived) = withState { state -> (LocalProvider.Fault?, (@Sendable () -> Void)?) in
            let fault = endpoint.flatMap { state.nextFault(for: $0) }
            state.record(LocalProvider.LoggedRequest(endpoint: endpoint, method: request.method, path: request.path,
                                                     parameters: parameters, resources: items.filter { $0.name == "resource" }.map(\.value),
                                                     authorization: request.header("Authorization"),
                                                     dpopProof: request.header("DPoP"), accept: request.header("Accept"),
                                                     fault: fault), limit: options.requestLogLimit)
            return (fault, endpoint.flatMap { state.arrivalObservers[$0] })
        }
        arrived?()
        switch fault {
        case .delay(let seconds)?:
            // The server is slow on purpose; the connection's own thread waits.
            Thread.sleep(forTimeInterval: seconds)
        case .status(let status, let body, let contentType, let headers)?:
            let extra = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
            return .respond(HTTPServerResponse(status: status, headers: [("Content-Type", contentType)] + extra, body: Data(body.utf8)))
        case .malformedBody?:
            return .respond(HTTPServerResponse(status: 200, headers: [("Content-Type", "application/json")],
                                               body: Data(#"{"access_token": "unterminated"#.utf8)))
        case .dropConnection?:
            return .dropConnection
        case nil:
            break
        }
        guard let endpoint else { return .respond(.text("Not found", status: 404)) }
        let response = route(endpoint, request)
        if let observer = withState({ $0.answerObservers[endpoint] }) {
            return .respondThenClose(response, afterSending: observer)
        }
        return .respond(response)
    }

    private func route(_ endpoint: Endpoint, _ request: HTTPServerRequest) -> HTTPServerResponse {
        if !options.servesOpenIDConnect, Self.openIDEndpoints.contains(endpoint) { return .text("Not found", status: 404) }
        switch endpoint {
        case .discovery:
            let document = Self.json(discoveryDocument())
            guard let maxAge = options.discoveryMaxAge else { return document }
            return HTTPServerResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=\(Int(maxAge))")],
                                      body: document.body)
        case .oauthMetadata: return Self.json(discoveryDocument())
        case .jwks: return jwks()
        case .authorization: return authorize(request)
        case .token: return token(request)
        case .userInfo: return userInfo(request)
        case .revocation: return revoke(request)
        case .permissionRead: return readPermissions(request)
        case .permissionWrite: return writePermissions(request)
        case .deviceAuthorization: return startDeviceSignIn(request)
        case .endSession: return endSession(request)
        case .pushedAuthorization: return pushAuthorizationRequest(request)
        case .introspection: return introspect(request)
        case .registration: return register(request)
        case .protectedResource: return serveProtectedResource(request)
        case .resourceMetadata: return protectedResourceMetadata(request)
        }
    }

    /// The published keys, with `Cache-Control: max-age` when ``LocalProvider/Options/jwksMaxAge`` is set.
    private func jwks() -> HTTPServerResponse {
        let published = withState { $0.keys.published }
        var headers = [("Content-Type", "application/json")]
        if let maxAge = options.jwksMaxAge { headers.append(("Cache-Control", "max-age=\(Int(maxAge))")) }
        return HTTPServerResponse(status: 200, headers: headers, body: SigningKey.jwksDocument(published.map(\.publicJWK)))
    }

    /// The endpoints only an OpenID provider has.
    private static let openIDEndpoints: Set<Endpoint> = [.discovery, .jwks, .userInfo, .endSession]

    private func discoveryDocument() -> [String: Any] {
        let base = issuer
        func url(_ endpoint: Endpoint) -> String { base + endpoint.path }
        var document: [String: Any] = [
            "issuer": base,
            "authorization_endpoint": url(.authorization),
            "token_endpoint": url(.token),
            "userinfo_endpoint": url(.userInfo),
            "jwks_uri": url(.jwks),
            "revocation_endpoint": url(.revocation),
            "introspection_endpoint": url(.introspection),
            "device_authorization_endpoint": url(.deviceAuthorization),
            "end_session_endpoint": url(.endSession),
            "scopes_supported": supportedScopes.sorted(),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": [options.signingAlgorithm.rawValue],
            "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"],
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": true,
            "backchannel_logout_supported": true,
            "backchannel_logout_session_supported": true,
            "pushed_authorization_request_endpoint": url(.pushedAuthorization),
            "require_pushed_authorization_requests": options.requiresPushedAuthorizationRequests,
            "claims_supported": ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "sid", "email", "email_verified",
                                 "given_name", "family_name", "birthdate"],
        ]
        if options.offersDPoP { document["dpop_signing_alg_values_supported"] = ["ES256"] }
        if options.offersDynamicRegistration { document["registration_endpoint"] = url(.registration) }
        if options.advertisesClientIDMetadataDocuments { document["client_id_metadata_document_supported"] = true }
        if !options.servesOpenIDConnect {
            for member in ["userinfo_endpoint", "jwks_uri", "end_session_endpoint", "subject_types_supported", "id_token_signing_alg_values_supported",
                           "claims_supported", "backchannel_logout_supported", "backchannel_logout_session_supported"] {
                document[member] = nil
            }
        }
        return document
    }

    /// The scopes the provider grants: its own and ``LocalProvider/Options/additionalScopes``;
    /// without OpenID Connect, not `openid`.
    var supportedScopes: Set<String> {
        var scopes = Self.ownScopes.union(options.additionalScopes)
        if !options.servesOpenIDConnect { scopes.remove("openid") }
        return scopes
    }

    /// Whether `scopes` may be granted: known, and none only at an OAuth-only server.
    func isGrantable(_ scopes: Set<String>) -> Bool {
        (!scopes.isEmpty || !options.servesOpenIDConnect) && scopes.isSubset(of: supportedScopes)
    }

    private static let ownScopes: Set<String> = ["openid", "profile", "email", "permission_management", "offline_access"]

    // MARK: Shared helpers

    /// The first value of each parameter name.
    static func firstValues(_ items: [(name: String, value: String)]) -> [String: String] {
        var result: [String: String] = [:]
        for item in items where result[item.name] == nil { result[item.name] = item.value }
        return result
    }

    /// The name of a parameter given more than once, if any (RFC 6749 §3.1 forbids repeats;
    /// RFC 8707 §2 allows `resource` several times).
    static func repeatedParameter(_ items: [(name: String, value: String)]) -> String? {
        var seen = Set<String>()
        return items.first { $0.name != "resource" && !seen.insert($0.name).inserted }?.name
    }

    /// Every `resource` of `items` (RFC 8707 §2).
    static func resources(_ items: [(name: String, value: String)]) -> Set<String> {
        Set(items.filter { $0.name == "resource" }.map(\.value))
    }

    static func json(_ object: Any, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPServerResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        let setsType = headers.contains { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }
        return HTTPServerResponse(status: status,
                                  headers: (setsType ? [] : [("Content-Type", "application/json")]) + [("Cache-Control", "no-store")] + headers,
                                  body: body)
    }

    /// An RFC 6749 §5.2 error response.
    static func oauthError(_ error: String, _ description: String, status: Int = 400) -> HTTPServerResponse {
        var headers: [(name: String, value: String)] = []
        if status == 401 { headers.append(("WWW-Authenticate", #"Basic realm="local-provider""#)) }
        return json(["error": error, "error_description": description], status: status, headers: headers)
    }

    /// A short HTML page, for outcomes the browser shows instead of redirecting.
    static func page(_ text: String, status: Int) -> HTTPServerResponse {
        .text("<!doctype html><html><body><p>\(text)</p></body></html>", status: status, contentType: "text/html; charset=utf-8")
    }

    /// A fresh opaque value for codes and tokens.
    static func randomValue(_ prefix: String) -> String {
        prefix + "-" + (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The bearer token of a request (RFC 6750 §2.1), if it sent one.
    static func bearerToken(_ request: HTTPServerRequest) -> String? {
        guard let header = request.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    /// The client with `id`: configured, registered and not expired, or described by a Client ID
    /// Metadata Document the provider takes.
    func client(withID id: String) -> LocalProvider.Client? {
        if let configured = options.clients.first(where: { Exact.equal($0.id, id) }) { return configured }
        guard let registered = registeredClients.withLock({ $0[id] }) else { return documentedClient(id) }
        if let expiresAt = registered.expiresAt, expiresAt <= options.clock.now() { return nil }
        return registered.client
    }

    func user(_ subject: String) -> LocalProvider.User? {
        options.users.first { $0.subject == subject }
    }
}

/// The result of a check that either passes with a value or has already produced the answer.
enum Checked<Value> {
    case passed(Value)
    case refused(HTTPServerResponse)
}

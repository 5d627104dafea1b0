import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Confidential clients (RFC 6749 §2.3.1): the secret goes where the registered method puts it,
/// on the code exchange, every refresh and revocation, with PKCE still on; a wrong secret or
/// method is invalid_client; the secret is never shown.
final class ConfidentialClientTests: XCTestCase {
    private static let secret = "s3cr3t value/with:reserved&chars"

    private func harness(_ method: ClientAuthentication, registered: ClientAuthentication? = nil,
                         audience: ClientAssertionAudience = .tokenEndpoint, providerRequiresIssuer: Bool = false,
                         logger: SessionLogger = SilentLogger()) throws -> (LocalProvider, SessionClient, RecordingStore) {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock) { options in
            options.clients = [LocalProvider.Client(id: "server-app", redirectURIs: [URL(string: "http://127.0.0.1/callback")!],
                                                    authentication: registered ?? method)]
            options.requiresIssuerAsAssertionAudience = providerRequiresIssuer
        }
        addTeardownBlock { provider.stop() }
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: "server-app",
                                                     redirectURI: URL(string: "http://127.0.0.1/callback")!, clientAuthentication: method,
                                                     clientAssertionAudience: audience)
        let store = RecordingStore()
        return (provider, SessionClient(configuration: configuration, store: store, transport: CurlTransport(timeout: 5),
                                        clock: clock, logger: logger), store)
    }

    func testClientSecretBasicOnExchangeRefreshAndRevocation() async throws {
        let (provider, client, _) = try harness(.clientSecretBasic(Self.secret))
        _ = try await client.signIn(agent: HeadlessUserAgent())
        _ = try await client.refresh()
        try await client.signOut(revokeTokens: true)
        let authenticated = provider.requests(to: .token) + provider.requests(to: .revocation)
        XCTAssertEqual(authenticated.count, 3)
        for request in authenticated {
            XCTAssertEqual(request.authorization?.hasPrefix("Basic "), true, request.path)
            XCTAssertNil(request.parameters["client_secret"])
            XCTAssertNil(request.parameters["client_id"], "Basic authenticates the client: no second way in the form")
        }
        XCTAssertNotNil(provider.requests(to: .token).first?.parameters["code_verifier"], "PKCE stays on")
    }

    func testClientSecretPostOnExchangeRefreshAndRevocation() async throws {
        let (provider, client, _) = try harness(.clientSecretPost(Self.secret))
        _ = try await client.signIn(agent: HeadlessUserAgent())
        _ = try await client.refresh()
        try await client.signOut(revokeTokens: true)
        for request in provider.requests(to: .token) + provider.requests(to: .revocation) {
            XCTAssertNil(request.authorization)
            XCTAssertEqual(request.parameters["client_secret"], Self.secret)
            XCTAssertEqual(request.parameters["client_id"], "server-app")
        }
    }

    func testPrivateKeyJWTOnExchangeRefreshAndRevocation() async throws {
        for algorithm in JWSAlgorithm.allCases {
            let key = try ClientSigningKey(pem: try SigningKey(algorithm: algorithm).pkcs8PEM(), keyID: "client-key-1")
            let (provider, client, _) = try harness(.privateKeyJWT(key))
            _ = try await client.signIn(agent: HeadlessUserAgent())
            _ = try await client.refresh()
            try await client.signOut(revokeTokens: true)
            let authenticated = provider.requests(to: .token) + provider.requests(to: .revocation)
            XCTAssertEqual(authenticated.count, 3)
            var identifiers: Set<String> = []
            for request in authenticated {
                XCTAssertNil(request.authorization)
                XCTAssertNil(request.parameters["client_secret"])
                XCTAssertEqual(request.parameters["client_assertion_type"], "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
                let parts = try XCTUnwrap(request.parameters["client_assertion"]).split(separator: ".").map(String.init)
                XCTAssertEqual(parts.count, 3)
                let header = try Self.json(parts[0]), claims = try Self.json(parts[1])
                XCTAssertEqual(header["alg"] as? String, algorithm.rawValue)
                XCTAssertEqual(header["kid"] as? String, "client-key-1")
                XCTAssertEqual(claims["iss"] as? String, "server-app")
                XCTAssertEqual(claims["sub"] as? String, "server-app")
                XCTAssertEqual(claims["aud"] as? String, provider.url(of: .token).absoluteString, "OpenID Connect Core §9: the token endpoint")
                let issuedAt = try XCTUnwrap(claims["iat"] as? Int), expiry = try XCTUnwrap(claims["exp"] as? Int)
                XCTAssertEqual(expiry - issuedAt, 120)
                identifiers.insert(try XCTUnwrap(claims["jti"] as? String))
            }
            XCTAssertEqual(identifiers.count, 3, "a fresh assertion, with its own jti, for every request")
            XCTAssertNotNil(provider.requests(to: .token).first?.parameters["code_verifier"], "PKCE stays on")
        }
    }

    /// FAPI 2.0: the assertion's `aud` is the issuer, alone and a string. A provider that insists
    /// on it refuses the default (the token endpoint) and takes the issuer.
    func testTheAssertionNamesTheIssuerWhenConfiguredAndAFAPIProviderTakesOnlyThat() async throws {
        let key = try ClientSigningKey(pem: try SigningKey(algorithm: .es256).pkcs8PEM())
        let (_, byEndpoint, _) = try harness(.privateKeyJWT(key), providerRequiresIssuer: true)
        await assertSessionError(.invalidClient) { try await byEndpoint.signIn(agent: HeadlessUserAgent()) }

        let (provider, byIssuer, _) = try harness(.privateKeyJWT(key), audience: .issuer, providerRequiresIssuer: true)
        _ = try await byIssuer.signIn(agent: HeadlessUserAgent())
        _ = try await byIssuer.refresh()
        try await byIssuer.signOut(revokeTokens: true)
        let authenticated = provider.requests(to: .token) + provider.requests(to: .revocation)
        XCTAssertEqual(authenticated.count, 3)
        for request in authenticated {
            let parts = try XCTUnwrap(request.parameters["client_assertion"]).split(separator: ".").map(String.init)
            XCTAssertEqual(try Self.json(parts[1])["aud"] as? String, provider.issuer.absoluteString, "the issuer, as a string")
        }
    }

    func testAnAssertionFromAnotherKeyIsInvalidClient() async throws {
        let registered = try ClientSigningKey(pem: try SigningKey(algorithm: .es256).pkcs8PEM())
        let other = try ClientSigningKey(pem: try SigningKey(algorithm: .es256).pkcs8PEM())
        let (provider, client, store) = try harness(.privateKeyJWT(other), registered: .privateKeyJWT(registered))
        let error = await assertSessionError(.invalidClient) { try await client.signIn(agent: HeadlessUserAgent()) }
        XCTAssertEqual(error?.httpStatus, 401)
        XCTAssertNil(store.contents)
        XCTAssertEqual(provider.requests(to: .token).count, 1)
    }

    func testAWrongSecretOrMethodIsInvalidClient() async throws {
        for (method, registered) in [(ClientAuthentication.clientSecretBasic("wrong"), ClientAuthentication.clientSecretBasic(Self.secret)),
                                     (.clientSecretPost(Self.secret), .clientSecretBasic(Self.secret)),
                                     (.none, .clientSecretPost(Self.secret))] {
            let (_, client, store) = try harness(method, registered: registered)
            await assertSessionError(.invalidClient) { try await client.signIn(agent: HeadlessUserAgent()) }
            XCTAssertNil(store.contents)
        }
    }

    func testTheSecretIsNeverShown() async throws {
        let logger = CapturingLogger()
        let (provider, client, store) = try harness(.clientSecretPost(Self.secret), logger: logger)
        defer { XCTAssertFalse(provider.requestLog.map(\.description).joined().contains(Self.secret), "the provider's log redacts it too") }
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        let error = await assertSessionError(.reauthenticationRequired) { try await client.refresh() }
        let storedText = String(decoding: try JSONEncoder().encode(store.saved), as: UTF8.self)
        let request = try await client.beginAuthorization()
        var dumped = ""
        dump(client.configuration, to: &dumped)
        var texts = [client.configuration.clientAuthentication.description, "\(client.configuration)", String(reflecting: client.configuration),
                     dumped, tokens.description,
                     error?.description ?? "", storedText, request.url.absoluteString]
        texts += logger.lines
        for text in texts {
            XCTAssertFalse(text.contains(Self.secret), text)
            XCTAssertFalse(text.contains("s3cr3t"), text)
        }
        XCTAssertThrowsError(try SessionConfiguration(issuer: provider.issuer, clientID: "c", redirectURI: URL(string: "x.y:/cb")!,
                                                      clientAuthentication: .clientSecretBasic("")))
    }

    private static func json(_ part: String) throws -> [String: Any] {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: XCTUnwrap(Data(base64Encoded: base64))) as? [String: Any])
    }

    /// LocalProvider compares client IDs byte for byte, as real services do: a Unicode-equivalent
    /// spelling (KELVIN SIGN for K) is another client.
    func testAUnicodeEquivalentClientIDIsAnotherClient() async throws {
        let provider = try LocalProvider(clock: SystemClock()) { options in
            options.clients = [LocalProvider.Client(id: "K-app", redirectURIs: [URL(string: "http://127.0.0.1/callback")!],
                                                    authentication: .clientSecretPost(Self.secret))]
        }
        addTeardownBlock { provider.stop() }
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: "\u{212A}-app",
                                                     redirectURI: URL(string: "http://127.0.0.1/callback")!,
                                                     clientAuthentication: .clientSecretPost(Self.secret))
        let client = SessionClient(configuration: configuration, transport: CurlTransport(timeout: 5))
        do {
            _ = try await client.signIn(agent: HeadlessUserAgent())
            XCTFail("a client ID that is not byte for byte the registered one signed in")
        } catch {
            XCTAssertTrue(provider.requests(to: .token).isEmpty, "refused at the authorization endpoint already: \(error)")
        }
    }
}

import Foundation
import SessionCore
import SessionTesting
import XCTest

/// SessionClient with DPoP (RFC 9449) and pushed authorization requests (RFC 9126) against
/// idpyoidc's server and its DPoP and PAR add-ons (Tests/Interop/idpyoidc/provider.py, started by
/// run-interop.sh). The provider takes no token request without a DPoP proof.
///
/// idpyoidc 5.0.0 follows an earlier DPoP draft in one place a client meets: at UserInfo it wants
/// `ath` as the hex SHA-256 of the token, where RFC 9449 §4.2 says base64url. Our proofs follow the
/// RFC, so its UserInfo refuses them; the test below holds that, so a release of idpyoidc that
/// follows the RFC fails it and tells us.
final class IdpyOIDCDPoPTests: XCTestCase {
    private var environment: IdpyOIDCEnvironment!

    override func setUpWithError() throws {
        environment = try IdpyOIDCEnvironment.load()
    }

    private func client(dpop: DPoPMode = .whenSupported, pushes: Bool = false) throws -> SessionClient {
        SessionClient(configuration: try environment.configuration(dpop: dpop, pushes: pushes), transport: CurlTransport(timeout: 10))
    }

    /// No login page: idpyoidc's NoAuthn signs the one user in, the headless agent follows the
    /// redirect to the app.
    private let user = HeadlessUserAgent()

    func testTheMetadataOffersES256ProofsAndAPushEndpoint() async throws {
        let metadata = try await client().discover()
        XCTAssertEqual(metadata.dpopSigningAlgValuesSupported, ["ES256"])
        XCTAssertNotNil(metadata.pushedAuthorizationRequestEndpoint)
    }

    func testSignInBindsTheTokensToTheSessionKey() async throws {
        let tokens = try await client().signIn(agent: user)
        XCTAssertEqual(tokens.subject, environment.subject, "the ID token was accepted")
        XCTAssertTrue(tokens.isSenderConstrained, "idpyoidc answered token_type DPoP")
        XCTAssertEqual(try Self.boundThumbprint(tokens.accessToken), try Self.thumbprint(of: tokens),
                       "the access token's cnf.jkt is the thumbprint of the key the proof was signed with")
    }

    func testAClientWithoutDPoPCannotSignIn() async throws {
        let error = await assertThrows(.invalidRequest) { try await self.client(dpop: .off).signIn(agent: self.user) }
        XCTAssertEqual(error?.oauthError, "invalid_request")
        XCTAssertTrue(error?.oauthErrorDescription?.contains("DPoP") ?? false, "the provider says the proof is missing: \(String(describing: error))")
    }

    func testRefreshProvesWithTheSameKeyAndKeepsTheBinding() async throws {
        let session = try client()
        let tokens = try await session.signIn(agent: user)
        let refreshed = try await session.refresh()
        XCTAssertNotEqual(refreshed.accessToken, tokens.accessToken)
        XCTAssertTrue(refreshed.isSenderConstrained)
        XCTAssertEqual(refreshed.dpopKey, tokens.dpopKey, "a refresh keeps the session's key")
        XCTAssertEqual(try Self.boundThumbprint(refreshed.accessToken), try Self.thumbprint(of: tokens))
    }

    func testUserInfoRefusesAnRFC9449AthBecauseItWantsHex() async throws {
        let session = try client()
        _ = try await session.signIn(agent: user)
        let error = await assertThrows { try await session.userInfo() }
        XCTAssertEqual(error?.oauthError, "invalid_request")
        XCTAssertEqual(error?.oauthErrorDescription, "'ath' in DPoP does not match the token hash",
                       "the checks before the ath comparison (the signature with the proof's jwk, htm, htu, the DPoP scheme) passed")
    }

    /// idpyoidc answers the refused refresh with `invalid_request` ("Refresh token inactive"),
    /// where RFC 6749 §5.2 has `invalid_grant`; the client ends the session either way.
    func testSignOutRevokesTheBoundRefreshToken() async throws {
        let session = try client()
        let tokens = try await session.signIn(agent: user)
        let later = try client()
        let error = try await refusalAfterRevoking(tokens, signingOut: session, thenRefreshingIn: later)
        XCTAssertEqual(error?.oauthError, "invalid_request")
        XCTAssertEqual(error?.oauthErrorDescription, "Refresh token inactive",
                       "the revoked refresh token is refused even with a proof made with the session's key")
        let ended = await later.tokens
        XCTAssertNil(ended)
    }

    /// RFC 9126 §4: the browser carries `client_id` and `request_uri` and nothing else. idpyoidc
    /// 5.0.0 checks the front-channel request as OpenID Connect Core §6.1 checks one with a request
    /// object, so it wants `response_type`, `scope` and `redirect_uri` there too, and refuses.
    func testAPushedRequestAsRFC9126SendsItIsRefusedForLackingResponseType() async throws {
        let session = try client(pushes: true)
        let agent = FirstAnswerAgent()
        _ = await assertThrows { try await session.signIn(agent: agent) }
        let first = await agent.answer.value
        let answer = try XCTUnwrap(first)
        let names = URLComponents(url: answer.url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name).sorted()
        XCTAssertEqual(names, ["client_id", "request_uri"], "the browser got only the pushed request's handle")
        XCTAssertEqual(answer.status, 400)
        XCTAssertTrue(answer.body.contains("Missing required attribute 'response_type'"), answer.body)
    }

    /// The pushed request as idpyoidc takes it: the test's agent repeats `response_type`, `scope`,
    /// `redirect_uri` and (for `offline_access`) `prompt` in the browser's URL (the client does not); idpyoidc then uses the
    /// pushed request it stored (once), and the tokens are bound as without a push.
    func testSignInWithAPushedRequestWhenTheBrowserRepeatsTheOpenIDParameters() async throws {
        let configuration = try environment.configuration(dpop: .whenSupported, pushes: true)
        let session = SessionClient(configuration: configuration, transport: CurlTransport(timeout: 10))
        let repeated = [URLQueryItem(name: "response_type", value: "code"),
                        URLQueryItem(name: "scope", value: (["openid"] + configuration.scopes).joined(separator: " ")),
                        URLQueryItem(name: "redirect_uri", value: configuration.redirectURI.absoluteString),
                        URLQueryItem(name: "prompt", value: configuration.prompt)]
        let tokens = try await session.signIn(agent: RepeatingAgent(inner: user, repeated: repeated))
        XCTAssertEqual(tokens.subject, environment.subject)
        XCTAssertTrue(tokens.isSenderConstrained)
        XCTAssertEqual(try Self.boundThumbprint(tokens.accessToken), try Self.thumbprint(of: tokens))
    }

    // MARK: - Helpers

    private static func thumbprint(of tokens: SessionTokens) throws -> String {
        try DPoPKey(pkcs8: try XCTUnwrap(tokens.dpopKey)).thumbprint()
    }

    /// `cnf.jkt` of an access token idpyoidc issued as a JWT (its JWTToken handler).
    private static func boundThumbprint(_ accessToken: String) throws -> String? {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
              let claims = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            XCTFail("the access token is not a JWT")
            return nil
        }
        return (claims["cnf"] as? [String: Any])?["jkt"] as? String
    }
}

/// Opens the authorization URL itself and keeps the provider's first answer (no redirect is
/// followed), then fails the sign-in.
private struct FirstAnswerAgent: AuthorizationAgent {
    struct Answer: Sendable {
        let url: URL
        let status: Int
        let body: String
    }

    actor Slot {
        private(set) var value: Answer?
        func set(_ answer: Answer) { value = answer }
    }

    let answer = Slot()

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        let response = try await CurlTransport(timeout: 10).send(HTTPRequest(method: "GET", url: url))
        await answer.set(Answer(url: url, status: response.status, body: String(decoding: response.body, as: UTF8.self)))
        throw SessionError(.cancelled, process: .authentication, message: "the test agent stops after the first answer")
    }
}

/// Adds query items to the authorization URL before passing it on.
private struct RepeatingAgent: AuthorizationAgent {
    let inner: any AuthorizationAgent
    let repeated: [URLQueryItem]

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        var components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []) + repeated
        return try await inner.authorize(url: try XCTUnwrap(components.url), redirectURI: redirectURI)
    }
}

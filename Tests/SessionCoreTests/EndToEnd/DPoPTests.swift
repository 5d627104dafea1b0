@testable import SessionCore
import ClientTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionTesting
import XCTest

/// DPoP (RFC 9449) against LocalProvider over loopback: the tokens of a sign-in are bound to the
/// session's key, every request with them proves it, a server's nonce is fetched and used, and a
/// token without its key is useless — to anyone holding a copy, and to the session itself.
final class DPoPTests: XCTestCase {
    private func harness(_ edit: @escaping (inout LocalProvider.Options) -> Void = { _ in }) throws -> LocalHarness {
        try makeLocalHarness { options in
            options.offersDPoP = true
            edit(&options)
        }
    }

    private func client(_ harness: LocalHarness, dpop: DPoPMode = .whenSupported, acceptsBearer: Bool = false,
                        pushes: Bool = false, store: TokenStore = InMemoryTokenStore()) throws -> SessionClient {
        try harness.client(pushes: pushes, dpop: dpop, acceptsBearerForDPoP: acceptsBearer, store: store)
    }

    private func key(of tokens: SessionTokens) throws -> DPoPKey {
        try DPoPKey(pkcs8: try XCTUnwrap(tokens.dpopKey, "the tokens keep their key"))
    }

    /// Sends a UserInfo request as someone else would, with `authorization` and `proof`.
    private func userInfo(_ harness: LocalHarness, authorization: String, proof: String? = nil) async throws -> HTTPResponse {
        var headers = ["Authorization": authorization]
        if let proof { headers["DPoP"] = proof }
        return try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: harness.provider.url(of: .userInfo), headers: headers))
    }

    private func challengeError(_ response: HTTPResponse) -> String? {
        response.header("WWW-Authenticate").flatMap { OAuthErrorResponse(challenge: $0, scheme: "DPoP") ?? OAuthErrorResponse(bearerChallenge: $0) }?.error
    }

    func testASignInBindsItsCodeAndTokensToTheSessionKeyAndEveryRequestProvesIt() async throws {
        let harness = try harness()
        let client = try client(harness)
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        XCTAssertTrue(tokens.isSenderConstrained)
        XCTAssertEqual(tokens.tokenType, "DPoP")
        let thumbprint = try key(of: tokens).thumbprint()
        XCTAssertEqual(harness.provider.requests(to: .authorization).last?.parameters["dpop_jkt"], thumbprint, "the code is bound (RFC 9449 §10)")
        XCTAssertEqual(harness.provider.dpopBinding(ofAccessToken: tokens.accessToken), thumbprint, "the access token's cnf.jkt")
        XCTAssertNotNil(harness.provider.requests(to: .token).last?.dpopProof, "the code exchange carries a proof")

        let info = try await client.userInfo()
        XCTAssertEqual(info.sub, "erika")
        let call = try XCTUnwrap(harness.provider.requests(to: .userInfo).last)
        XCTAssertEqual(call.authorization, "DPoP \(tokens.accessToken)")
        let proof = try XCTUnwrap(call.dpopProof)
        // The proof is for this request, this token, and once: the provider already took it.
        XCTAssertThrowsError(try DPoPProofCheck().verify(proof, method: "POST", url: harness.provider.url(of: .userInfo),
                                                          accessToken: tokens.accessToken, now: harness.clock.now()))
        XCTAssertEqual(try DPoPProofCheck().verify(proof, method: "GET", url: harness.provider.url(of: .userInfo),
                                                    accessToken: tokens.accessToken, now: harness.clock.now()), thumbprint)

        let refreshed = try await client.refresh()
        XCTAssertNotNil(harness.provider.requests(to: .token).last?.dpopProof, "the refresh proves the key")
        XCTAssertEqual(refreshed.dpopKey, tokens.dpopKey, "a refresh keeps the session's key")
        XCTAssertEqual(harness.provider.dpopBinding(ofAccessToken: refreshed.accessToken), thumbprint)
        _ = try await client.userInfo()
    }

    func testACopiedTokenIsUselessWithoutItsKey() async throws {
        let harness = try harness()
        let tokens = try await client(harness).signIn(agent: HeadlessUserAgent())
        let url = harness.provider.url(of: .userInfo)

        let asBearer = try await userInfo(harness, authorization: "Bearer \(tokens.accessToken)")
        XCTAssertEqual(asBearer.status, 401)
        XCTAssertEqual(challengeError(asBearer), "invalid_token", "a bound token is not a bearer token")

        let withoutProof = try await userInfo(harness, authorization: "DPoP \(tokens.accessToken)")
        XCTAssertEqual(challengeError(withoutProof), "invalid_dpop_proof")

        let thief = try DPoPKey.generate()
        let stolen = try await userInfo(harness, authorization: "DPoP \(tokens.accessToken)",
                                        proof: DPoPProof.make(key: thief, method: "GET", url: url, accessToken: tokens.accessToken, now: harness.clock.now()))
        XCTAssertEqual(challengeError(stolen), "invalid_token", "a proof with another key does not make the token usable")

        let otherToken = try await userInfo(harness, authorization: "DPoP \(tokens.accessToken)",
                                            proof: DPoPProof.make(key: try key(of: tokens), method: "GET", url: url, accessToken: "another token",
                                                                  now: harness.clock.now()))
        XCTAssertEqual(challengeError(otherToken), "invalid_dpop_proof", "ath binds the proof to the token")

        // The refresh token likewise: refreshing with another key's proof is refused.
        let refreshToken = try XCTUnwrap(tokens.refreshToken)
        var refresh = HTTPRequest.formPost(harness.provider.url(of: .token), [("grant_type", "refresh_token"), ("refresh_token", refreshToken),
                                                                               ("client_id", harness.client.configuration.clientID)])
        refresh.headers["DPoP"] = try DPoPProof.make(key: thief, method: "POST", url: harness.provider.url(of: .token), now: harness.clock.now())
        let refused = try await CurlTransport(timeout: 5).send(refresh)
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(OAuthErrorResponse(json: refused.body)?.error, "invalid_dpop_proof")
        XCTAssertTrue(harness.provider.isActive(refreshToken: refreshToken), "the refused refresh spent nothing")
    }

    func testACodeBoundToOneKeyCannotBeExchangedWithAnother() async throws {
        let harness = try harness()
        let client = try client(harness)
        let request = try await client.beginAuthorization()
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let code = try XCTUnwrap(URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value)
        var exchange = HTTPRequest.formPost(harness.provider.url(of: .token), [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", request.redirectURI.absoluteString),
            ("code_verifier", request.codeVerifier), ("client_id", client.configuration.clientID),
        ])
        exchange.headers["DPoP"] = try DPoPProof.make(key: try DPoPKey.generate(), method: "POST", url: harness.provider.url(of: .token),
                                                     now: harness.clock.now())
        let refused = try await CurlTransport(timeout: 5).send(exchange)
        XCTAssertEqual(OAuthErrorResponse(json: refused.body)?.error, "invalid_grant", "the code is bound to the dpop_jkt key")
    }

    func testTheProviderRefusesMalformedDPoPRequests() async throws {
        let harness = try harness { $0.requiresDPoP = true }
        let token = harness.provider.url(of: .token)
        let form = [("grant_type", "refresh_token"), ("refresh_token", "rt-unknown"), ("client_id", harness.client.configuration.clientID)]
        let plain = try await CurlTransport(timeout: 5).send(HTTPRequest.formPost(token, form))
        XCTAssertEqual(OAuthErrorResponse(json: plain.body)?.error, "invalid_request", "a provider requiring DPoP refuses a request without a proof")

        // Two proofs (RFC 9449 §4.3, check 1) are refused, whatever they hold.
        let key = try DPoPKey.generate()
        let proof = try DPoPProof.make(key: key, method: "POST", url: token, now: harness.clock.now())
        var doubled = HTTPRequest.formPost(token, form)
        (doubled.headers["DPoP"], doubled.headers["dpop"]) = (proof, proof)
        let twice = try await CurlTransport(timeout: 5).send(doubled)
        XCTAssertEqual(OAuthErrorResponse(json: twice.body)?.error, "invalid_dpop_proof")

        // A dpop_jkt that is no thumbprint ends the authorization with invalid_request.
        let request = try await client(harness).beginAuthorization()
        var components = try XCTUnwrap(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        components.queryItems = components.queryItems?.map { $0.name == "dpop_jkt" ? URLQueryItem(name: "dpop_jkt", value: "short") : $0 }
        let callback = try await HeadlessUserAgent().authorize(url: try XCTUnwrap(components.url), redirectURI: request.redirectURI)
        XCTAssertEqual(URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "error" }?.value, "invalid_request")
    }

    func testTheServersNonceIsTakenUpAndTheRequestSentOnceMore() async throws {
        let harness = try harness { $0.requiresDPoPNonce = true }
        let client = try client(harness)
        _ = try await client.signIn(agent: HeadlessUserAgent())
        let exchanges = harness.provider.requests(to: .token)
        XCTAssertEqual(exchanges.count, 2, "the first exchange was answered use_dpop_nonce")
        XCTAssertNotNil(exchanges.last?.dpopProof)

        _ = try await client.userInfo()
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 1, "the nonce of the provider's origin was known already")

        harness.provider.rotateDPoPNonce()
        let info = try await client.userInfo()
        XCTAssertEqual(info.sub, "erika")
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 3, "a 401 use_dpop_nonce is answered once, with the new nonce")

        harness.provider.rotateDPoPNonce()
        _ = try await client.refresh()
        XCTAssertEqual(harness.provider.requests(to: .token).count, 4, "a refresh answered use_dpop_nonce is sent once more")
        XCTAssertEqual(harness.provider.refreshTokenReuses, 0, "the refused refresh spent nothing")
    }

    /// Provider nodes behind a load balancer, each with nonces of its own, answer a refresh and its
    /// retry with `use_dpop_nonce`: the request was not processed (RFC 9449 §8), so the session
    /// stays, the error is reported, and the next call refreshes with the refresh token it kept.
    func testARefreshAnsweredUseDPoPNonceTwiceKeepsTheSession() async throws {
        let harness = try harness { $0.requiresDPoPNonce = true }
        let store = InMemoryTokenStore()
        let client = try client(harness, store: store)
        let signedIn = try await client.signIn(agent: HeadlessUserAgent())
        let refusal = #"{"error":"use_dpop_nonce","error_description":"this node's nonce"}"#
        harness.provider.inject(.status(400, body: refusal, headers: ["DPoP-Nonce": "node-a-nonce"]), at: .token)
        harness.provider.inject(.status(400, body: refusal, headers: ["DPoP-Nonce": "node-b-nonce"]), at: .token)
        let before = harness.provider.requests(to: .token).count
        let error = await assertSessionError(.oauthError, process: .authentication) { _ = try await client.refresh() }
        XCTAssertEqual(error?.oauthError, "use_dpop_nonce")
        XCTAssertEqual(harness.provider.requests(to: .token).count - before, 2, "sent, and once more with the nonce")
        let kept = await client.tokens
        XCTAssertEqual(kept?.refreshToken, signedIn.refreshToken, "the session is kept")
        let stored = try await store.load()
        XCTAssertNil(stored?.inFlight, "and stored without the refresh's mark")
        let refreshed = try await client.refresh()
        XCTAssertNotEqual(refreshed.refreshToken, signedIn.refreshToken)
        XCTAssertEqual(harness.provider.refreshTokenReuses, 0)
    }

    /// A provider that moves on to a new nonce with every answer (RFC 9449 §8.2) gives it on the
    /// answer to a retry too: learning it there, each later call is one request, not two.
    func testTheNonceOfTheAnswerToARetryIsLearned() async throws {
        let harness = try harness { options in
            options.requiresDPoPNonce = true
            options.rotatesDPoPNonceWithEveryAnswer = true
        }
        let client = try client(harness)
        _ = try await client.signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2, "the first exchange learned the nonce")
        for _ in 0..<3 { _ = try await client.userInfo() }
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 3, "each call carried the nonce of the answer before it")
        _ = try await client.refresh()
        XCTAssertEqual(harness.provider.requests(to: .token).count, 3, "and so did the refresh")
    }

    func testABearerAnswerToADPoPRequestIsRefusedUnlessTheConfigurationTakesIt() async throws {
        let harness = try makeLocalHarness()
        do {
            _ = try await client(harness, dpop: .required).signIn(agent: HeadlessUserAgent())
            XCTFail("a Bearer answer to a DPoP request was taken")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .invalidResponse)
            XCTAssertTrue(error.message.contains("Bearer"), error.message)
        }
        let downgraded = try await client(harness, dpop: .required, acceptsBearer: true).signIn(agent: HeadlessUserAgent())
        XCTAssertFalse(downgraded.isSenderConstrained)

        // Asked only when supported, a provider without DPoP gets no proofs at all.
        let bearer = try client(harness, dpop: .whenSupported)
        let tokens = try await bearer.signIn(agent: HeadlessUserAgent())
        XCTAssertFalse(tokens.isSenderConstrained)
        XCTAssertNil(harness.provider.requests(to: .authorization).last?.parameters["dpop_jkt"])
        XCTAssertNil(harness.provider.requests(to: .token).last?.dpopProof)
        _ = try await bearer.userInfo()
        XCTAssertEqual(harness.provider.requests(to: .userInfo).last?.authorization, "Bearer \(tokens.accessToken)")
    }

    func testARequiredDPoPAtAProviderWithoutES256IsUnsupported() async throws {
        let harness = try harness()
        let served = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: harness.provider.url(of: .discovery)))
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: served.body) as? [String: Any])
        document["dpop_signing_alg_values_supported"] = ["RS256"]
        harness.provider.inject(.status(200, body: String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)),
                                at: .discovery, times: nil)
        do {
            _ = try await client(harness, dpop: .required).beginAuthorization()
            XCTFail("no ES256 proofs at this provider")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .unsupportedProviderFeature)
        }
    }

    func testAStoredSessionKeepsItsKeyAndOneWithoutItEndsInsteadOfGoingUnbound() async throws {
        let harness = try harness()
        let (configuration, directory, store, tokens) = try await signedInWithFileStore(harness)

        let later = try client(harness, store: try FileTokenStore(configuration: configuration, directory: directory))
        let restored = try await later.loadStoredSession()
        XCTAssertEqual(restored?.dpopKey, tokens.dpopKey, "the key is kept in the envelope")
        _ = try await later.userInfo()
        XCTAssertEqual(harness.provider.requests(to: .userInfo).last?.authorization, "DPoP \(restored?.accessToken ?? "")")

        try await store.save(tokens.bound(to: nil))
        let keyless = try client(harness, store: try FileTokenStore(configuration: configuration, directory: directory))
        _ = try await keyless.loadStoredSession()
        try await assertUserInfoEndsTheSessionUnsent(keyless, harness: harness, store: store)

        try await store.save(tokens.bound(to: .pkcs8(Data("not a key".utf8))))
        let broken = try client(harness, store: try FileTokenStore(configuration: configuration, directory: directory))
        _ = try await broken.loadStoredSession()
        do {
            _ = try await broken.refresh()
            XCTFail("a refresh went out with an unreadable key")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired)
        }
    }

    /// A refresh of a session whose key is unreadable ends it before any await: nothing goes to
    /// the provider, not even the first discovery, during which a new sign-in could land and be
    /// ended in the old one's place.
    func testARefreshWithAnUnreadableKeyEndsTheSessionBeforeSendingAnything() async throws {
        let harness = try harness()
        let (configuration, directory, store, tokens) = try await signedInWithFileStore(harness)
        try await store.save(tokens.bound(to: .pkcs8(Data("not a key".utf8))))
        let broken = try client(harness, store: try FileTokenStore(configuration: configuration, directory: directory))
        _ = try await broken.loadStoredSession()
        let before = harness.provider.requestLog.count
        do {
            _ = try await broken.refresh()
            XCTFail("a refresh went ahead with an unreadable key")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired)
        }
        XCTAssertEqual(harness.provider.requestLog.map(\.endpoint).dropFirst(before), [], "nothing was sent, discovery included")
        let left = try await store.load()
        XCTAssertNil(left, "the session is gone from the store")
    }

    /// A session whose key was made in a Secure Enclave keeps only the key's reference; where
    /// that enclave is not (here: Linux, or another device after a restore) the session ends
    /// rather than going out unbound.
    func testASecureEnclaveReferenceIsStoredAndWithoutItsEnclaveTheSessionEnds() async throws {
        let harness = try harness()
        let (configuration, directory, store, tokens) = try await signedInWithFileStore(harness)
        let reference = Data("a reference only the enclave that made it can use".utf8)
        try await store.save(tokens.bound(to: .secureEnclave(reference)))

        let later = try client(harness, store: try FileTokenStore(configuration: configuration, directory: directory))
        let restored = try await later.loadStoredSession()
        XCTAssertEqual(restored?.dpopKeyMaterial, .secureEnclave(reference), "the reference is in the envelope")
        XCTAssertNil(restored?.dpopKey, "and no key bytes")
        XCTAssertTrue(restored?.isSenderConstrained ?? false)
        try await assertUserInfoEndsTheSessionUnsent(later, harness: harness, store: store)
    }

    /// A stored session whose key is a valid key but not the one its tokens are bound to (a store
    /// mixed up, a key replaced): the provider refuses its proofs, the refresh is refused too, and
    /// the session ends with `reauthenticationRequired`; no request goes out unbound.
    func testASessionWhoseKeyIsNotItsTokensBindingEnds() async throws {
        let harness = try harness()
        let (configuration, directory, store, tokens) = try await signedInWithFileStore(harness)
        try await store.save(tokens.bound(to: try DPoPKey.generateInMemory().material))
        let later = try client(harness, store: try FileTokenStore(configuration: configuration, directory: directory))
        _ = try await later.loadStoredSession()
        do {
            _ = try await later.userInfo()
            XCTFail("a proof with another key was accepted")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired, "\(error)")
        }
        let sent = harness.provider.requests(to: .userInfo) + harness.provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }
        XCTAssertFalse(sent.isEmpty)
        XCTAssertTrue(sent.allSatisfy { $0.dpopProof != nil }, "every request carried a proof, none went unbound")
        let left = try await store.load()
        XCTAssertNil(left, "the session is gone from the store")
    }

    /// A DPoP sign-in whose session is in a file store in a fresh directory (removed after the test).
    private func signedInWithFileStore(_ harness: LocalHarness) async throws
        -> (configuration: SessionConfiguration, directory: URL, store: FileTokenStore, tokens: SessionTokens) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let configuration = try client(harness).configuration
        let store = try FileTokenStore(configuration: configuration, directory: directory)
        return (configuration, directory, store, try await client(harness, store: store).signIn(agent: HeadlessUserAgent()))
    }

    /// `userInfo()` on DPoP tokens whose key `client` cannot use: `reauthenticationRequired`,
    /// no request at the provider, and the session gone from `store`.
    private func assertUserInfoEndsTheSessionUnsent(_ client: SessionClient, harness: LocalHarness, store: TokenStore,
                                                    file: StaticString = #filePath, line: UInt = #line) async throws {
        let calls = harness.provider.requests(to: .userInfo).count
        do {
            _ = try await client.userInfo()
            XCTFail("DPoP tokens were used without their key", file: file, line: line)
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired, file: file, line: line)
        }
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, calls, "nothing was sent unbound", file: file, line: line)
        let left = try await store.load()
        XCTAssertNil(left, "the unusable session is gone from the store", file: file, line: line)
    }

    func testDeviceSignInAndPushedRequestsBindTheirTokensToo() async throws {
        let harness = try harness { options in
            options.approvesDeviceSignInsAfterPolls = 1
        }
        let device = try client(harness)
        let authorization = try await device.beginDeviceAuthorization()
        let deviceTokens = try await device.completeDeviceAuthorization(authorization)
        let deviceKey = try key(of: deviceTokens).thumbprint()
        XCTAssertEqual(harness.provider.dpopBinding(ofAccessToken: deviceTokens.accessToken), deviceKey)

        let pushing = try client(harness, pushes: true)
        let tokens = try await pushing.signIn(agent: HeadlessUserAgent())
        let thumbprint = try key(of: tokens).thumbprint()
        let pushed = try XCTUnwrap(harness.provider.requests(to: .pushedAuthorization).last)
        XCTAssertEqual(pushed.parameters["dpop_jkt"], thumbprint)
        XCTAssertNotNil(pushed.dpopProof, "the pushed request carries a proof of the same key")
        XCTAssertEqual(harness.provider.dpopBinding(ofAccessToken: tokens.accessToken), thumbprint)
    }

    func testAuthorizeAddsAProofOfTheAppsOwnRequest() async throws {
        let harness = try harness()
        let client = try client(harness)
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        let api = try XCTUnwrap(URL(string: "https://api.example.com/v1/items?page=2"))
        var request = URLRequest(url: api)
        request.httpMethod = "DELETE"
        request.setValue("Bearer old", forHTTPHeaderField: "authorization")
        let authorized = try await client.authorize(request)
        XCTAssertEqual(authorized.value(forHTTPHeaderField: "Authorization"), "DPoP \(tokens.accessToken)")
        let proof = try XCTUnwrap(authorized.value(forHTTPHeaderField: "DPoP"))
        XCTAssertEqual(try DPoPProofCheck().verify(proof, method: "DELETE", url: api, accessToken: tokens.accessToken, now: harness.clock.now()),
                       try key(of: tokens).thumbprint(), "htu drops the query; htm is the request's method")
    }

    func testNeitherTheKeyNorATokenShowsInDescriptionsOrDumps() async throws {
        let harness = try harness()
        let client = try client(harness)
        let pending = try await client.beginAuthorization()
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        var dumped = "", dumpedKey = "", dumpedRequest = ""
        dump(tokens, to: &dumped)
        dump(try self.key(of: tokens), to: &dumpedKey)
        dump(pending, to: &dumpedRequest)
        let key = try XCTUnwrap(tokens.dpopKey)
        let requestKey = try XCTUnwrap(pending.dpopKey?.pkcs8)
        XCTAssertFalse(dumpedRequest.contains(Base64URL.encode(requestKey)), "a pending request's key is not dumped")
        XCTAssertFalse(dumpedRequest.contains(" bytes"), "nor listed byte by byte: \(dumpedRequest)")
        XCTAssertTrue(dumpedRequest.contains("DPoPKey(P-256)"), dumpedRequest)
        for text in [dumped, dumpedKey, tokens.description, String(describing: try self.key(of: tokens))] {
            XCTAssertFalse(text.contains(tokens.accessToken), text)
            XCTAssertFalse(text.contains(key.base64EncodedString()), text)
            XCTAssertFalse(text.contains(Base64URL.encode(key)), text)
            XCTAssertFalse(text.contains("bytes"), "no Data is listed byte by byte: \(text)")
        }
        XCTAssertTrue(tokens.description.contains("DPoP-bound"))
    }
}

import ClientTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionTesting
import XCTest

/// RFC 8707 against LocalProvider's audience-restricted resources over loopback: `resource` on
/// every request that asks for a token, tokens kept per resource and refreshed on their own, and
/// a token sent only to the resource it was issued for.
final class ResourceIndicatorTests: XCTestCase {
    private struct Setup {
        let provider: LocalProvider
        let clock: ManualClock
        let store: InMemoryTokenStore
        let client: SessionClient
        var files: URL { provider.resourceIdentifier(path: "/api/files") }
        var mail: URL { provider.resourceIdentifier(path: "/api/mail") }

        func get(_ url: URL) -> HTTPRequest { HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"]) }

        /// The resource a successful answer names.
        func resource(of response: HTTPResponse) -> String? {
            (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["resource"] as? String
        }
    }

    private func makeSetup(resources: [String] = ["/api/files"], edit: (inout LocalProvider.Options) -> Void = { _ in }) throws -> Setup {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock) {
            $0.additionalScopes = ["files:read", "mail:read"]
            $0.protectedResources = [.init(path: "/api/files", scopes: ["files:read"]), .init(path: "/api/mail", scopes: ["mail:read"])]
            edit(&$0)
        }
        addTeardownBlock { provider.stop() }
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: LocalProvider.Client.demo.id,
                                                     redirectURI: try XCTUnwrap(LocalProvider.Client.demo.redirectURIs.first),
                                                     scopes: ["files:read", "mail:read"],
                                                     resources: resources.map { provider.resourceIdentifier(path: $0) })
        let store = InMemoryTokenStore()
        return Setup(provider: provider, clock: clock, store: store,
                     client: SessionClient(configuration: configuration, store: store, transport: CurlTransport(timeout: 5), clock: clock))
    }

    private func values(_ name: String, in request: LocalProvider.LoggedRequest?) -> [String] {
        name == "resource" ? request?.resources ?? [] : request?.parameters[name].map { [$0] } ?? []
    }

    func testTheSignInAsksForItsResourceEverywhereAndTheTokenWorksThere() async throws {
        let setup = try makeSetup()
        let tokens = try await setup.client.signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(tokens.resources, [setup.files.absoluteString])
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .authorization).last), [setup.files.absoluteString])
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .token).last), [setup.files.absoluteString])

        let (response, _) = try await setup.client.sendAuthorized(setup.get(setup.files.appendingPathComponent("list")),
                                                                  process: .authentication, purpose: "files")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(setup.resource(of: response), setup.files.absoluteString)

        _ = try await setup.client.refresh()
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .token).last), [setup.files.absoluteString],
                       "a refresh asks for the same resource")
    }

    func testADeviceSignInIsBoundToTheResourcesItNamed() async throws {
        let setup = try makeSetup { $0.approvesDeviceSignInsAfterPolls = 1 }
        let authorization = try await setup.client.beginDeviceAuthorization()
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .deviceAuthorization).last), [setup.files.absoluteString])
        let tokens = try await setup.client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(tokens.resources, [setup.files.absoluteString])
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .token).last), [setup.files.absoluteString])
        let (response, _) = try await setup.client.sendAuthorized(setup.get(setup.files), process: .authentication, purpose: "files")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(setup.resource(of: response), setup.files.absoluteString)
        // RFC 8707 §2.2: the device grant named one resource, so its refresh token is for that one only.
        await assertSessionError(.invalidTarget) { _ = try await setup.client.tokens(forResource: setup.mail) }
    }

    func testADeviceSignInForAResourceTheServerDoesNotServeIsRefused() async throws {
        let setup = try makeSetup(resources: ["/api/unknown"]) { $0.approvesDeviceSignInsAfterPolls = 1 }
        await assertSessionError(.invalidTarget) { _ = try await setup.client.beginDeviceAuthorization() }
        XCTAssertTrue(setup.provider.requests(to: .token).isEmpty, "no device code was issued to poll with")
    }

    func testARequestToAnotherResourceIsRefusedBeforeAnythingIsSent() async throws {
        let setup = try makeSetup()
        _ = try await setup.client.signIn(agent: HeadlessUserAgent())
        await assertSessionError(.noTokenForResource) {
            _ = try await setup.client.sendAuthorized(setup.get(setup.mail), process: .authentication, purpose: "mail")
        }
        await assertSessionError(.noTokenForResource) {
            _ = try await setup.client.authorize(URLRequest(url: setup.mail.appendingPathComponent("inbox")))
        }
        // A path that only starts like the resource's is another resource.
        await assertSessionError(.noTokenForResource) {
            _ = try await setup.client.sendAuthorized(setup.get(URL(string: setup.files.absoluteString + "-admin")!),
                                                      process: .authentication, purpose: "look-alike")
        }
        XCTAssertTrue(setup.provider.requests(to: .protectedResource).isEmpty, "no token left the client")
    }

    func testATokenForEachResourceIsAskedForKeptAndSentOnlyThere() async throws {
        // A sign-in that names no resource leaves the server to decide which it may have later.
        let setup = try makeSetup(resources: [])
        let signedIn = try await setup.client.signIn(agent: HeadlessUserAgent())
        let files = try await setup.client.tokens(forResource: setup.files)
        let mail = try await setup.client.tokens(forResource: setup.mail)
        XCTAssertEqual(mail.resource, setup.mail.absoluteString)
        XCTAssertNotEqual(mail.accessToken, signedIn.accessToken)
        let refresh = setup.provider.requests(to: .token).last
        XCTAssertEqual(refresh?.parameters["grant_type"], "refresh_token")
        XCTAssertEqual(values("resource", in: refresh), [setup.mail.absoluteString])

        let held = await setup.client.tokens
        let current = try XCTUnwrap(held)
        XCTAssertEqual(current.accessToken, signedIn.accessToken, "the session's own token stays")
        XCTAssertNotEqual(current.refreshToken, signedIn.refreshToken, "the rotated refresh token is kept")
        XCTAssertEqual(current.resourceTokens, [setup.mail.absoluteString: mail, setup.files.absoluteString: files])
        let stored = try await setup.store.load()
        XCTAssertEqual(stored?.resourceTokens[setup.mail.absoluteString], mail, "stored with the session")

        let (toMail, _) = try await setup.client.sendAuthorized(setup.get(setup.mail), process: .authentication, purpose: "mail")
        XCTAssertEqual(setup.resource(of: toMail), setup.mail.absoluteString)
        XCTAssertEqual(setup.provider.requests(to: .protectedResource).last?.authorization, "Bearer \(mail.accessToken)")
        let (toFiles, _) = try await setup.client.sendAuthorized(setup.get(setup.files), process: .authentication, purpose: "files")
        XCTAssertEqual(setup.resource(of: toFiles), setup.files.absoluteString)
        XCTAssertEqual(setup.provider.requests(to: .protectedResource).last?.authorization, "Bearer \(files.accessToken)")
        let authorized = try await setup.client.authorize(URLRequest(url: setup.mail.appendingPathComponent("inbox")))
        XCTAssertEqual(authorized.value(forHTTPHeaderField: "Authorization"), "Bearer \(mail.accessToken)")

        // The resource itself refuses the other's token: the audience is checked there too.
        var offered = setup.get(setup.files)
        offered.headers["Authorization"] = "Bearer \(mail.accessToken)"
        let refused = try await CurlTransport(timeout: 5).send(offered)
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(try ResourceChallenge.challenges(in: refused).first?.error, "invalid_token")
    }

    func testEachResourceTokenIsRefreshedOnItsOwn() async throws {
        let setup = try makeSetup(resources: [])
        let signedIn = try await setup.client.signIn(agent: HeadlessUserAgent())
        let mail = try await setup.client.tokens(forResource: setup.mail)
        let again = try await setup.client.tokens(forResource: setup.mail)
        XCTAssertEqual(again, mail, "a fresh token is not asked for again")
        let refreshesBefore = setup.provider.refreshes.count

        setup.clock.advance(by: 3_600)
        let renewed = try await setup.client.tokens(forResource: setup.mail)
        XCTAssertNotEqual(renewed.accessToken, mail.accessToken)
        XCTAssertEqual(setup.provider.refreshes.count, refreshesBefore + 1)
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .token).last), [setup.mail.absoluteString])
        let held = await setup.client.tokens
        XCTAssertEqual(held?.accessToken, signedIn.accessToken, "the session's own token was not refreshed with it")

        let session = try await setup.client.validTokens()
        XCTAssertNotEqual(session.accessToken, signedIn.accessToken)
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .token).last), [], "the session's own refresh names no resource")
        XCTAssertEqual(session.resourceTokens[setup.mail.absoluteString], renewed, "the session's refresh keeps the resource's token")
    }

    func testAResourceTokenTheResourceRefusesIsRefreshedOnceAndTheRequestSentAgain() async throws {
        let setup = try makeSetup(resources: [])
        let signedIn = try await setup.client.signIn(agent: HeadlessUserAgent())
        let mail = try await setup.client.tokens(forResource: setup.mail)
        setup.provider.revoke(accessToken: mail.accessToken)
        let refreshesBefore = setup.provider.refreshes.count

        let (response, tokens) = try await setup.client.sendAuthorized(setup.get(setup.mail), process: .authentication, purpose: "mail")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(setup.resource(of: response), setup.mail.absoluteString)
        XCTAssertEqual(setup.provider.refreshes.count, refreshesBefore + 1, "one refresh")
        XCTAssertEqual(values("resource", in: setup.provider.requests(to: .token).last), [setup.mail.absoluteString], "for that resource")
        let renewed = try XCTUnwrap(tokens.resourceTokens[setup.mail.absoluteString]?.accessToken)
        XCTAssertNotEqual(renewed, mail.accessToken)
        XCTAssertEqual(setup.provider.requests(to: .protectedResource).suffix(2).map(\.authorization),
                       ["Bearer \(mail.accessToken)", "Bearer \(renewed)"], "sent again once, with the new token")
        XCTAssertEqual(tokens.accessToken, signedIn.accessToken, "the session's own token was not refreshed with it")

        // A POST may not be sent twice: the refusal comes back as it is.
        setup.provider.revoke(accessToken: renewed)
        var post = setup.get(setup.mail)
        post.method = "POST"
        let (refused, _) = try await setup.client.sendAuthorized(post, process: .authentication, purpose: "mail")
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(setup.provider.refreshes.count, refreshesBefore + 1, "no refresh for a request that cannot be sent again")
    }

    func testARefusedResourceLeavesTheSessionAsItWas() async throws {
        let setup = try makeSetup()
        _ = try await setup.client.signIn(agent: HeadlessUserAgent())
        let heldBefore = await setup.client.tokens
        let before = try XCTUnwrap(heldBefore)
        await assertSessionError(.invalidTarget) {
            _ = try await setup.client.tokens(forResource: setup.provider.resourceIdentifier(path: "/api/unknown"))
        }
        // RFC 8707 §2.2: a grant that named resources gives tokens for those only.
        await assertSessionError(.invalidTarget) { _ = try await setup.client.tokens(forResource: setup.mail) }
        let heldAfter = await setup.client.tokens
        let after = try XCTUnwrap(heldAfter)
        XCTAssertEqual(after, before)
        let stored = try await setup.store.load()
        XCTAssertNotNil(stored)
        XCTAssertNil(stored?.inFlight, "the refresh's mark is taken back")
        XCTAssertTrue(setup.provider.isActive(refreshToken: try XCTUnwrap(after.refreshToken)))
        _ = try await setup.client.refresh()
    }

    func testResourceAndSessionRefreshesNeverSpendTheRefreshTokenTwice() async throws {
        let setup = try makeSetup(resources: [])
        _ = try await setup.client.signIn(agent: HeadlessUserAgent())
        for _ in 0..<10 {
            setup.clock.advance(by: 3_600)
            async let mail = setup.client.tokens(forResource: setup.mail)
            async let session = setup.client.refresh()
            async let again = setup.client.validTokens()
            _ = try await (mail, session, again)
        }
        XCTAssertEqual(setup.provider.refreshTokenReuses, 0)
        let held = await setup.client.tokens
        let tokens = try XCTUnwrap(held)
        XCTAssertTrue(setup.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)))
    }

    func testAStoredSessionKeepsItsResourceTokens() async throws {
        let setup = try makeSetup(resources: [])
        _ = try await setup.client.signIn(agent: HeadlessUserAgent())
        let mail = try await setup.client.tokens(forResource: setup.mail)
        let later = SessionClient(configuration: setup.client.configuration, store: setup.store, transport: CurlTransport(timeout: 5),
                                  clock: setup.clock)
        _ = try await later.loadStoredSession()
        let restored = try await later.tokens(forResource: setup.mail)
        XCTAssertEqual(restored, mail)
        let (response, _) = try await later.sendAuthorized(setup.get(setup.mail), process: .authentication, purpose: "mail")
        XCTAssertEqual(response.status, 200)
    }

    func testAFileStoreKeepsTheResourcesAndTheirTokens() async throws {
        let setup = try makeSetup(resources: [])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resources-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let files = try FileTokenStore(configuration: setup.client.configuration, directory: directory)
        let client = SessionClient(configuration: setup.client.configuration, store: files, transport: CurlTransport(timeout: 5), clock: setup.clock)
        _ = try await client.signIn(agent: HeadlessUserAgent())
        let mail = try await client.tokens(forResource: setup.mail)
        let held = await client.tokens

        let later = SessionClient(configuration: setup.client.configuration, store: try FileTokenStore(configuration: setup.client.configuration,
                                                                                                       directory: directory),
                                  transport: CurlTransport(timeout: 5), clock: setup.clock)
        let restored = try await later.loadStoredSession()
        XCTAssertEqual(restored, held, "read back from the file as it was")
        XCTAssertEqual(restored?.resourceTokens[setup.mail.absoluteString], mail)
        XCTAssertFalse(String(describing: restored).contains(mail.accessToken), "the description shows no token")
    }

    func testASessionWithoutResourcesSendsItsOwnTokenWhereNoResourceTokenCovers() async throws {
        let setup = try makeSetup(resources: [])
        let tokens = try await setup.client.signIn(agent: HeadlessUserAgent())
        XCTAssertTrue(tokens.resources.isEmpty)
        XCTAssertNil(setup.provider.requests(to: .authorization).last?.parameters["resource"])
        let (response, _) = try await setup.client.sendAuthorized(setup.get(setup.files), process: .authentication, purpose: "files")
        XCTAssertEqual(response.status, 401, "a strict resource takes only tokens issued for it")
        _ = try await setup.client.tokens(forResource: setup.files)
        let (again, _) = try await setup.client.sendAuthorized(setup.get(setup.files), process: .authentication, purpose: "files")
        XCTAssertEqual(again.status, 200)
    }

    func testAStoredResourceTokenUnderAnotherResourcesNameIsRefused() throws {
        let mail = ResourceAccessToken(resource: "https://mail.example/api", accessToken: "at-mail", expiresAt: nil, scopes: [])
        let tokens = SessionTokens(accessToken: "at", refreshToken: "rt", idToken: nil, expiresAt: nil, scopes: [], subject: nil,
                                   resourceTokens: [mail.resource: mail])
        let stored = String(decoding: try JSONEncoder().encode(tokens), as: UTF8.self)
        XCTAssertEqual(try JSONDecoder().decode(SessionTokens.self, from: Data(stored.utf8)), tokens)
        // An edited file files the mail token under the files resource: it would be sent there.
        let edited = stored.replacingOccurrences(of: #""https:\/\/mail.example\/api":{"#, with: #""https:\/\/files.example\/api":{"#)
        XCTAssertNotEqual(edited, stored)
        XCTAssertThrowsError(try JSONDecoder().decode(SessionTokens.self, from: Data(edited.utf8)))
    }

    func testResourcesAreCheckedAsConfigured() throws {
        let issuer = URL(string: "https://as.example")!
        let redirect = URL(string: "com.example.app:/callback")!
        for bad in ["https://api.example/mcp#part", "https://api.example/mcp?x=1", "http://api.example/mcp", "https://user@api.example"] {
            XCTAssertThrowsError(try SessionConfiguration(issuer: issuer, clientID: "c", redirectURI: redirect, resources: [URL(string: bad)!]),
                                 bad)
        }
        XCTAssertThrowsError(try SessionConfiguration(issuer: issuer, clientID: "c", redirectURI: redirect,
                                                      additionalParameters: ["resource": "https://api.example"]))
        XCTAssertThrowsError(try SessionConfiguration(issuer: issuer, clientID: "c", redirectURI: redirect,
                                                      tokenRequestParameters: ["resource": "https://api.example"]))
        XCTAssertNoThrow(try SessionConfiguration(issuer: issuer, clientID: "c", redirectURI: redirect,
                                                  resources: [URL(string: "https://api.example/mcp")!, URL(string: "http://127.0.0.1:8080")!]))
    }
}

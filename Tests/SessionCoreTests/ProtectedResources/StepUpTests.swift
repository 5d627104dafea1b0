import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Step-up against LocalProvider's resources over loopback: `insufficient_scope` answered with a
/// sign-in for the union of scopes, RFC 9470's `insufficient_user_authentication` with `max_age`
/// and `acr_values`, each told as an event, bounded, and only ever by the same user.
final class StepUpTests: XCTestCase {
    private struct Setup {
        let provider: LocalProvider
        let clock: ManualClock
        let client: SessionClient
        let events: Locked<[SessionEvent]>

        func post(_ path: String) -> HTTPRequest {
            HTTPRequest(method: "POST", url: provider.issuer.appendingPathComponent(path), headers: ["Accept": "application/json"])
        }
    }

    private func makeSetup(edit: (inout LocalProvider.Options) -> Void = { _ in }) async throws -> Setup {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock) {
            $0.users = [.erika, .max]
            $0.additionalScopes = ["files:read", "admin"]
            $0.protectedResources = [.init(path: "/api/files", scopes: ["files:read"]), .init(path: "/api/admin", scopes: ["admin"]),
                                     .init(path: "/api/recent", maxAge: 300)]
            edit(&$0)
        }
        addTeardownBlock { provider.stop() }
        let configuration = try SessionConfiguration(
            issuer: provider.issuer, clientID: LocalProvider.Client.demo.id,
            redirectURI: try XCTUnwrap(LocalProvider.Client.demo.redirectURIs.first), scopes: ["files:read"],
            resources: ["/api/files", "/api/admin", "/api/recent"].map { provider.resourceIdentifier(path: $0) })
        let client = SessionClient(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock)
        let events = Locked<[SessionEvent]>([])
        await client.setEventHandler { event in events.withLock { $0.append(event) } }
        _ = try await client.signIn(agent: HeadlessUserAgent())
        return Setup(provider: provider, clock: clock, client: client, events: events)
    }

    private func stepUps(_ setup: Setup) -> [StepUp] {
        setup.events.value.compactMap { if case .stepUpRequired(let stepUp) = $0 { stepUp } else { nil } }
    }

    func testAMissingScopeIsAskedForWithTheScopesAlreadyHeld() async throws {
        let setup = try await makeSetup()
        let (response, tokens) = try await setup.client.sendAuthorized(setup.post("/api/admin"), process: .authentication, purpose: "admin",
                                                                       signingInAgainWith: HeadlessUserAgent())
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(Set(tokens.scopes), ["openid", "files:read", "admin"])
        XCTAssertEqual(stepUps(setup).map(\.reason), [.insufficientScope])
        let authorizations = setup.provider.requests(to: .authorization)
        XCTAssertEqual(authorizations.count, 2)
        XCTAssertEqual(Set((authorizations.last?.parameters["scope"] ?? "").split(separator: " ").map(String.init)),
                       ["openid", "files:read", "admin"], "the union: nothing held before is lost")
        let (files, _) = try await setup.client.sendAuthorized(setup.post("/api/files"), process: .authentication, purpose: "files")
        XCTAssertEqual(files.status, 200)
    }

    func testAResourceThatKeepsRefusingEndsTheCallAfterTheLimit() async throws {
        let setup = try await makeSetup()
        setup.provider.inject(.status(401, headers: ["WWW-Authenticate": #"Bearer error="insufficient_user_authentication", max_age=300"#]),
                              at: .protectedResource, times: nil)
        await assertSessionError(.insufficientUserAuthentication) {
            _ = try await setup.client.sendAuthorized(setup.post("/api/admin"), process: .authentication, purpose: "admin",
                                                      signingInAgainWith: HeadlessUserAgent(), maximumSignIns: 2)
        }
        XCTAssertEqual(setup.provider.requests(to: .authorization).count, 3, "the first sign-in and two step-ups")
        XCTAssertEqual(setup.provider.requests(to: .protectedResource).count, 3)
        XCTAssertEqual(stepUps(setup).count, 2)
    }

    func testARefusalNamingNoScopeTheSessionLacksIsReturnedAsIs() async throws {
        let setup = try await makeSetup()
        setup.provider.inject(.status(403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope="files:read""#]),
                              at: .protectedResource)
        let (response, _) = try await setup.client.sendAuthorized(setup.post("/api/files"), process: .authentication, purpose: "files",
                                                                  signingInAgainWith: HeadlessUserAgent())
        XCTAssertEqual(response.status, 403)
        XCTAssertEqual(setup.provider.requests(to: .authorization).count, 1, "signing in for what is held cannot help")
        XCTAssertTrue(stepUps(setup).isEmpty)
    }

    func testAnOldAuthenticationIsRenewedWithMaxAgeAndACRValues() async throws {
        let setup = try await makeSetup()
        setup.clock.advance(by: 600)
        setup.provider.inject(.status(401, headers: ["WWW-Authenticate":
                #"Bearer error="insufficient_user_authentication", acr_values="urn:example:mfa", max_age=300"#]), at: .protectedResource)
        let (response, tokens) = try await setup.client.sendAuthorized(setup.post("/api/recent"), process: .authentication, purpose: "recent",
                                                                       signingInAgainWith: HeadlessUserAgent())
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(stepUps(setup).count, 1)
        let stepUp = try XCTUnwrap(stepUps(setup).first)
        XCTAssertEqual(stepUp.reason, .insufficientUserAuthentication)
        XCTAssertEqual(stepUp.acrValues, ["urn:example:mfa"])
        XCTAssertEqual(stepUp.maxAge, 300)
        XCTAssertEqual(Set(stepUp.scopes), Set(tokens.scopes))
        let authorization = setup.provider.requests(to: .authorization).last
        XCTAssertEqual(authorization?.parameters["max_age"], "300")
        XCTAssertEqual(authorization?.parameters["acr_values"], "urn:example:mfa")
    }

    func testTheResourcesOwnMaxAgeIsMetBySigningInAgain() async throws {
        let setup = try await makeSetup()
        setup.clock.advance(by: 600)
        let (refused, _) = try await setup.client.sendAuthorized(setup.post("/api/recent"), process: .authentication, purpose: "recent")
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(try ResourceChallenge.challenges(in: refused).first?.maxAge, 300)
        let (response, _) = try await setup.client.sendAuthorized(setup.post("/api/recent"), process: .authentication, purpose: "recent",
                                                                  signingInAgainWith: HeadlessUserAgent())
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(stepUps(setup).map(\.reason), [.insufficientUserAuthentication])
    }

    func testAnIDTokenAuthenticatedLongerAgoThanMaxAgeIsRefused() async throws {
        let setup = try await makeSetup { $0.codeLifetime = 3_600 }
        setup.provider.inject(.status(401, headers: ["WWW-Authenticate": #"Bearer error="insufficient_user_authentication", max_age=300"#]),
                              at: .protectedResource)
        // The user approves, then the code is exchanged ten minutes later: auth_time is too old.
        // The clock moves while the client waits for the token endpoint's answer, so it has moved
        // before the client reads the ID token (after the authorization's answer, it could move late).
        let clock = setup.clock
        setup.provider.whenReceiving(.token) { clock.advance(by: 600) }
        let before = await setup.client.tokens
        await assertSessionError(.insufficientUserAuthentication) {
            _ = try await setup.client.sendAuthorized(setup.post("/api/recent"), process: .authentication, purpose: "recent",
                                                      signingInAgainWith: HeadlessUserAgent())
        }
        let after = await setup.client.tokens
        XCTAssertEqual(after, before, "the refused sign-in leaves the session as it was")
    }

    func testAStepUpByAnotherUserIsRefusedAndTheSessionStaysTheFirstUsers() async throws {
        let setup = try await makeSetup()
        setup.provider.scriptConsent(.approveAs(subject: "max"))
        await assertSessionError(.idTokenSubjectMismatch) {
            _ = try await setup.client.sendAuthorized(setup.post("/api/admin"), process: .authentication, purpose: "admin",
                                                      signingInAgainWith: HeadlessUserAgent())
        }
        let tokens = await setup.client.tokens
        XCTAssertEqual(tokens?.subject, "erika")
        XCTAssertFalse(tokens?.scopes.contains("admin") ?? true)
    }
}

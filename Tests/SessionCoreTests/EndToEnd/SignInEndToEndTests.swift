import ClientTestSupport
import Foundation
import SessionCore
import SessionFacade
import SessionPermissions
import SessionTesting
import XCTest

/// SessionClient against LocalProvider over loopback HTTP: sign-in, resources, refresh,
/// sign-out and restore.
final class SignInEndToEndTests: XCTestCase {
    func testSignInForEachFlowObtainsTheFlowsTokens() async throws {
        for flow in AuthFlow.allCases {
            let harness = try makeLocalHarness()
            let tokens = try await harness.signIn(flow)
            XCTAssertEqual(tokens.idToken != nil, flow.requestsIDToken, "\(flow)")
            XCTAssertEqual(tokens.subject, flow.requestsIDToken ? "erika" : nil, "\(flow)")
            XCTAssertEqual(Set(tokens.scopes), Set(flow.scopes), "\(flow)")
            XCTAssertNotNil(tokens.refreshToken)
            XCTAssertEqual(harness.stored, tokens, "the session is stored when sign-in returns")
            let authorization = try XCTUnwrap(harness.provider.requests(to: .authorization).last)
            XCTAssertEqual(authorization.parameters["code_challenge_method"], "S256")
            XCTAssertEqual(authorization.parameters["scope"], flow.scopes.joined(separator: " "))
            let exchange = try XCTUnwrap(harness.provider.requests(to: .token).last)
            XCTAssertEqual(exchange.parameters["code_verifier"]?.count, 43)
        }
    }

    func testSignInWithEachSigningAlgorithm() async throws {
        for algorithm in [JWSAlgorithm.rs256, .es256] {
            let harness = try makeLocalHarness { $0.signingAlgorithm = algorithm }
            let tokens = try await harness.signIn(.login)
            let header = try XCTUnwrap(tokens.idToken?.split(separator: ".").first)
            var encoded = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            encoded += String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            let json = try XCTUnwrap(Data(base64Encoded: encoded).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
            XCTAssertEqual(json["alg"] as? String, algorithm.rawValue)
        }
    }

    func testUserInfoReturnsTheSignedInUser() async throws {
        let harness = try makeLocalHarness()
        _ = try await harness.signIn(.login)
        let user = try await harness.client.userInfo()
        XCTAssertEqual(user.sub, "erika")
        XCTAssertEqual(user.givenName, "Erika")
        XCTAssertEqual(user.email, "erika@example.com")
    }

    func testPermissionsReadUpdateAndReadBack() async throws {
        let harness = try makeLocalHarness()
        _ = try await harness.signIn(.loginPermission)
        let before = try await harness.permissions().fetchPermissions(identifiers: [.tagProtocolIdentifier, .synchronizationIdentifier])
        XCTAssertEqual(before.statusCode, .permissionsFound)
        XCTAssertEqual(before.privacySettings?.idConsent?.status, .valid)
        XCTAssertEqual(before.subjectIdentifiers, SubjectIdentifiers(tpId: "tpid-erika", syncId: "sync-erika"))

        let identifiers = try await harness.permissions().updatePermissions(PermissionUpdate(idConsent: .invalid, iabTcString: "CPtest"),
                                                                    identifiers: [.tagProtocolIdentifier])
        XCTAssertEqual(identifiers, SubjectIdentifiers(tpId: "tpid-erika"))

        let after = try await harness.permissions().fetchPermissions()
        XCTAssertEqual(after.privacySettings?.idConsent?.status, .invalid)
        XCTAssertEqual(after.privacySettings?.iabTcString?.value, "CPtest")
        XCTAssertNil(after.subjectIdentifiers, "no identifiers unless asked for")
        XCTAssertEqual(harness.provider.permissions(of: "erika")?.idConsent, .invalid)
        XCTAssertEqual(harness.provider.requests(to: .permissionWrite).last?.parameters["q.identifier.in"], "TPID")
    }

    func testPermissionsNeedThePermissionScope() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        let error = await assertSessionError(.insufficientScope, process: .permissionRead) {
            try await harness.permissions().fetchPermissions()
        }
        XCTAssertEqual(error?.permissionStatus, .tokenError)
        XCTAssertTrue(harness.provider.requests(to: .permissionRead).isEmpty, "without a permission token nothing is sent")
        XCTAssertFalse(harness.provider.acceptsAtPermissionCenter(tokens.accessToken), "and the access token would be refused")
    }

    func testTheIDTokensClaimsAreDecodedOnceAndSurviveCopiesAndTheStore() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.loginPermission)
        XCTAssertEqual(tokens.idTokenClaims["sub"]?.stringValue, "erika")
        XCTAssertEqual(tokens.idTokenClaims["iss"]?.stringValue, harness.provider.issuer.absoluteString)
        XCTAssertNotNil(tokens.idTokenClaims["permission_management"]?.objectValue)
        let expiry = try XCTUnwrap(tokens.idTokenExpiresAt)
        XCTAssertEqual(expiry.timeIntervalSince(harness.clock.now()), 3600, accuracy: 1)
        XCTAssertEqual(tokens.withExpiry(nil).idTokenClaims, tokens.idTokenClaims)
        XCTAssertEqual(tokens.withAccessToken("other").idTokenClaims, tokens.idTokenClaims)

        let stored = try JSONEncoder().encode(tokens)
        XCTAssertFalse(String(decoding: stored, as: UTF8.self).contains("idTokenClaims"), "claims are not stored twice")
        XCTAssertEqual(try JSONDecoder().decode(SessionTokens.self, from: stored), tokens)
        let withoutIDToken = SessionTokens(accessToken: "a", refreshToken: nil, idToken: nil, expiresAt: nil, scopes: [], subject: nil)
        XCTAssertTrue(withoutIDToken.idTokenClaims.isEmpty)
        XCTAssertNil(withoutIDToken.idTokenExpiresAt)
    }

    func testThePermissionCenterTakesOnlyThePermissionToken() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.loginPermission)
        let permissionToken = try tokens.permissionToken
        XCTAssertNotEqual(permissionToken, tokens.accessToken)
        XCTAssertTrue(harness.provider.acceptsAtPermissionCenter(permissionToken))
        XCTAssertFalse(harness.provider.acceptsAtPermissionCenter(tokens.accessToken), "a session with an ID token uses its claim")
        XCTAssertFalse(harness.provider.isActive(accessToken: permissionToken), "the permission token is no access token for UserInfo")

        let transport = CurlTransport(timeout: 5)
        let refused = try await transport.send(HTTPRequest(method: "GET", url: harness.provider.url(of: .permissionRead),
                                                           headers: ["Authorization": "Bearer \(tokens.accessToken)"]))
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self), #"{"status_code":"TOKEN_ERROR"}"#)

        _ = try await harness.permissions().fetchPermissions()
        XCTAssertEqual(harness.provider.requests(to: .permissionRead).last?.authorization, "Bearer \(permissionToken)")

        // A refresh brings a new ID token with a new permission token, which is used from then on.
        harness.clock.advance(by: 3600)
        _ = try await harness.permissions().fetchPermissions()
        let refreshed = try XCTUnwrap(harness.stored)
        XCTAssertNotEqual(try refreshed.permissionToken, permissionToken)
        XCTAssertEqual(harness.provider.requests(to: .permissionRead).last?.authorization, "Bearer \(try refreshed.permissionToken)")
    }

    func testAPermissionOnlySessionUsesItsAccessToken() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.permission)
        XCTAssertNil(tokens.idToken)
        _ = try await harness.permissions().updatePermissions(PermissionUpdate(idConsent: .invalid))
        XCTAssertEqual(harness.provider.requests(to: .permissionWrite).last?.authorization, "Bearer \(tokens.accessToken)")
    }

    func testAnExpiredAccessTokenIsRefreshedWithRotationBeforeUse() async throws {
        let harness = try makeLocalHarness()
        let first = try await harness.signIn(.loginPermission)
        harness.clock.advance(by: 3600)

        let user = try await harness.client.userInfo()
        XCTAssertEqual(user.sub, "erika")
        let refresh = try XCTUnwrap(harness.provider.requests(to: .token).last)
        XCTAssertEqual(refresh.parameters["grant_type"], "refresh_token")
        let current = try XCTUnwrap(harness.stored)
        XCTAssertNotEqual(current.refreshToken, first.refreshToken, "the rotated token is stored")
        XCTAssertFalse(harness.provider.isActive(refreshToken: try XCTUnwrap(first.refreshToken)))
        XCTAssertTrue(harness.provider.isActive(refreshToken: try XCTUnwrap(current.refreshToken)))
        XCTAssertTrue(harness.provider.isActive(accessToken: current.accessToken))
    }

    func testReplayingARotatedRefreshTokenRevokesTheWholeGrant() async throws {
        let harness = try makeLocalHarness()
        let first = try await harness.signIn(.login)
        harness.clock.advance(by: 3600)
        let rotated = try await harness.client.refresh()

        // A stale copy of the session (another process, an old backup) presents the old token.
        let stale = try harness.secondClient()
        try await stale.setTokens(first)
        let error = await assertSessionError(.reauthenticationRequired) { try await stale.validTokens() }
        XCTAssertEqual(error?.oauthError, "invalid_grant")
        XCTAssertFalse(harness.provider.isActive(refreshToken: try XCTUnwrap(rotated.refreshToken)),
                       "reuse detection revokes the newer token too")
        XCTAssertFalse(harness.provider.isActive(accessToken: rotated.accessToken))
    }

    func testSignOutWithRevocationMakesTheOldRefreshTokenUseless() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.loginPermission)
        try await harness.client.signOut(revokeTokens: true)

        XCTAssertNil(harness.stored)
        let revocation = try XCTUnwrap(harness.provider.requests(to: .revocation).last)
        XCTAssertEqual(revocation.parameters["token_type_hint"], "refresh_token")
        XCTAssertFalse(harness.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)))
        XCTAssertFalse(harness.provider.isActive(accessToken: tokens.accessToken), "revoking the grant ends its access tokens")

        let later = try harness.secondClient()
        try await later.setTokens(tokens.withExpiry(harness.clock.now().addingTimeInterval(-1)))
        let error = await assertSessionError(.reauthenticationRequired) { try await later.validTokens() }
        XCTAssertEqual(error?.oauthError, "invalid_grant")
    }

    func testANewClientRestoresTheSessionFromTheFileStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let harness = try makeLocalHarness()
        let configuration = harness.client.configuration
        let firstRun = SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                                     transport: CurlTransport(timeout: 5), clock: harness.clock)
        let tokens = try await firstRun.signIn(agent: HeadlessUserAgent())

        let secondRun = try harness.secondClient(store: try FileTokenStore(configuration: configuration, directory: directory))
        let restored = try await secondRun.loadStoredSession()
        XCTAssertEqual(restored, tokens)
        let user = try await secondRun.userInfo()
        XCTAssertEqual(user.sub, "erika")
    }

    func testDeniedConsentGivesAccessDeniedAndNoSession() async throws {
        let harness = try makeLocalHarness()
        harness.provider.scriptConsent(.deny)
        let error = await assertSessionError(.accessDenied, process: .authentication) { try await harness.signIn() }
        XCTAssertEqual(error?.oauthError, "access_denied")
        XCTAssertNil(harness.stored)
        XCTAssertTrue(harness.provider.requests(to: .token).isEmpty)
    }

    func testClosingTheProviderPageGivesCancelled() async throws {
        let harness = try makeLocalHarness()
        harness.provider.scriptConsent(.cancel)
        await assertSessionError(.cancelled, process: .authentication) { try await harness.signIn() }
        XCTAssertNil(harness.stored)
        // The next attempt is approved: the cancelled one left nothing behind.
        _ = try await harness.signIn()
        XCTAssertNotNil(harness.stored)
    }

    func testSigningInAsAnotherUserGivesTheirSubject() async throws {
        let harness = try makeLocalHarness { options in
            options.users.append(LocalProvider.User(subject: "max", email: "max@example.com", givenName: "Max", familyName: "Muster"))
        }
        harness.provider.scriptConsent(.approveAs(subject: "max"))
        let tokens = try await harness.signIn(.loginPermission)
        XCTAssertEqual(tokens.subject, "max")
        let error = await assertSessionError(.permissionRequestFailed) { try await harness.permissions().fetchPermissions() }
        XCTAssertEqual(error?.permissionStatus, .permissionsNotFound, "permission state is per subject")
    }
}

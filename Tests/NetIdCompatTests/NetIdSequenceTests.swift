import Foundation
import NetIdCompat
import SessionCore
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// netID's callback sequences for initialize, authorize, the layer and endSession, against
/// LocalProvider over loopback. Each test names the netid-sdk-ios 1.2.0 behaviour it keeps.
final class NetIdSequenceTests: XCTestCase {
    func testInitializeWithNothingStoredAndASecondInitializeIsSilent() async throws {
        // NetIdService.initialize: "Configuration already been set" is logged, nothing called back.
        let harness = try makeNetIdHarness()
        harness.app.initialize(with: harness.config)
        harness.netId.initialize(harness.config)
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFinishInitializationWithError(nil)",
            "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
        ])
        XCTAssertEqual(harness.app.currentConfig?.clientId, "session-demo")
    }

    func testAFailedInitializeDoesNotUndoALaterOneThatSucceeds() async throws {
        let harness = try makeNetIdHarness()
        var unreachable = harness.config
        unreachable.issuer = URL(string: "http://127.0.0.1:1")!
        harness.app.initialize(with: unreachable)
        harness.netId.initialize(harness.config)
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didEncounterNetworkError(NetworkError/Configuration)", "L1.didFinishInitializationWithError(nil)",
        ])
        XCTAssertEqual(harness.app.currentConfig?.issuer, harness.config.issuer, "the configuration that worked stays")
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(3)
        XCTAssertEqual(harness.log.transcript.last, "L1.didFetchUserInfoWithError(NoAuth/UserInfo)", "initialized, without a session")
    }

    func testAStoredSessionIsAnnouncedOncePerListener() async throws {
        let store = InMemoryTokenStore()
        let first = try makeNetIdHarness(store: store)
        _ = await first.signedIn()
        let second = try makeNetIdHarness(store: store, listeners: 2)
        // The first provider issued the stored tokens: point the new service at it.
        second.app.initialize(with: first.config)
        _ = await second.log.waitForEvents(4)
        // L2 was registered when the harness was made, L1 by initialize: in that order, once each.
        XCTAssertEqual(second.log.transcript, [
            "L2.didFinishInitializationWithError(nil)", "L1.didFinishInitializationWithError(nil)",
            "L2.didFinishAuthentication(token)", "L1.didFinishAuthentication(token)",
        ])
    }

    func testAListenerRegisteredTwiceHearsEveryCallbackTwice() async throws {
        // netID appends every registration to its listener array.
        let harness = try makeNetIdHarness()
        harness.netId.registerListener(harness.app)
        harness.app.initialize(with: harness.config)
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(4)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFinishInitializationWithError(nil)", "L1.didFinishInitializationWithError(nil)",
            "L1.didFetchUserInfoWithError(NoAuth/UserInfo)", "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
        ])
    }

    func testAuthorizeAnnouncesAnExistingSessionFirst() async throws {
        // AppAuthManager.authorizeWeb calls didFinishAuthenticationWithError(nil) when an auth
        // state exists, which NetIdService turns into didFinishAuthentication(current token).
        let harness = try makeNetIdHarness()
        let before = await harness.signedIn(.Login)
        let first = try XCTUnwrap(harness.app.accessToken)
        harness.app.authorize(.Login)
        _ = await harness.log.waitForEvents(before + 2)
        XCTAssertEqual(harness.events(after: before), ["L1.didFinishAuthentication(token)", "L1.didFinishAuthentication(token)"])
        XCTAssertNotEqual(harness.app.accessToken, first, "the second announcement is the new session's")
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2, "announcing the existing session sends nothing")
    }

    func testAuthorizeWithoutSessionAnnouncesNothingFirst() async throws {
        let harness = try makeNetIdHarness()
        _ = await harness.signedIn(.Login)
        XCTAssertEqual(harness.log.transcript, ["L1.didFinishInitializationWithError(nil)", "L1.didFinishAuthentication(token)"])
    }

    func testTheUserClosingThePageIsACancel() async throws {
        // Departure (DifferencesFromNetID.md): netID on iOS reports a closed browser as NoAuth.
        let harness = try makeNetIdHarness()
        harness.provider.scriptConsent(.cancel)
        _ = await harness.signedIn()
        XCTAssertEqual(harness.log.transcript.last, "L1.didCancelAuthentication(AuthorizationCanceledByUser/Authentication)")
    }

    func testEveryOtherFailedSignInIsNoAuth() async throws {
        // AppAuthManager.authorizeWeb reports any failure as (NoAuth, Authentication).
        let harness = try makeNetIdHarness()
        harness.provider.scriptConsent(.deny)
        let denied = await harness.signedIn()
        harness.provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        harness.app.authorize(.Login)
        _ = await harness.log.waitForEvents(denied + 1)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFinishInitializationWithError(nil)",
            "L1.didFinishAuthenticationWithError(NoAuth/Authentication)",
            "L1.didFinishAuthenticationWithError(NoAuth/Authentication)",
        ])
    }

    func testDismissEndsAnAuthorizationWaitingForItsRedirect() async throws {
        // NetIdService.didTapDismiss: didCancelAuthentication(AuthorizationCanceledByUser, Authentication).
        let harness = try makeNetIdHarness()
        var opened = harness.openedAuthorizationURLs()
        harness.app.initialize(with: harness.config)
        harness.app.authorize(.Login)
        let redirect = try await harness.redirect(after: await opened.next())
        // The user never comes back; the app closes its sign-in screen.
        harness.netId.didTapDismiss()
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(3)
        harness.app.resume(redirect)
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(4)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFinishInitializationWithError(nil)",
            "L1.didCancelAuthentication(AuthorizationCanceledByUser/Authentication)",
            "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
            "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
        ], "a redirect arriving after the dismissal changes nothing")
    }

    func testDismissWithoutAnAuthorizationStillCallsBackInOrder() async throws {
        let harness = try makeNetIdHarness()
        harness.app.initialize(with: harness.config)
        harness.netId.didTapDismiss()
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(3)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFinishInitializationWithError(nil)",
            "L1.didCancelAuthentication(AuthorizationCanceledByUser/Authentication)",
            "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
        ])
    }

    func testANewAuthorizeReplacesOneWaitingForItsRedirect() async throws {
        // netID replaces its currentAuthorizationFlow; the replaced one ends with a cancel here.
        let harness = try makeNetIdHarness()
        var opened = harness.openedAuthorizationURLs()
        harness.app.initialize(with: harness.config)
        harness.app.authorize(.Login)
        _ = await opened.next()
        harness.app.authorize(.Login)
        let redirect = try await harness.redirect(after: await opened.next())
        harness.app.resume(redirect)
        _ = await harness.log.waitForEvents(3)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFinishInitializationWithError(nil)",
            "L1.didCancelAuthentication(AuthorizationCanceledByUser/Authentication)",
            "L1.didFinishAuthentication(token)",
        ])
    }

    func testTheLayersContinueAuthorizes() async throws {
        let harness = try makeNetIdHarness()
        harness.app.initialize(with: harness.config)
        harness.netId.didTapContinue(universalLink: nil, presentingViewController: NSObject(), authFlow: .Login)
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript.last, "L1.didFinishAuthentication(token)")
    }

    func testPermissionManagerCallsReachEveryListenerInOrder() async throws {
        // NetIdService's PermissionManagerDelegate methods are public and forward to every listener.
        let harness = try makeNetIdHarness(listeners: 2)
        harness.app.initialize(with: harness.config)
        harness.netId.didUpdatePermission(SubjectIdentifiers(tpId: "t", syncId: "s", eTpId: "e"))
        harness.netId.didFetchPermissionsWithError(.TPID_EXISTENCE_ERROR, NetIdError(code: .Other, process: .PermissionRead))
        _ = await harness.log.waitForEvents(6)
        XCTAssertEqual(harness.log.transcript, [
            "L2.didFinishInitializationWithError(nil)", "L1.didFinishInitializationWithError(nil)",
            "L2.didUpdatePermission(tpid=t)", "L1.didUpdatePermission(tpid=t)",
            "L2.didFetchPermissionsWithError(TPID_EXISTENCE_ERROR Other/PermissionRead)",
            "L1.didFetchPermissionsWithError(TPID_EXISTENCE_ERROR Other/PermissionRead)",
        ])
    }

    func testTheWebFlowSendsClaimsAndPromptOnlyWhereNetIdDoes() async throws {
        // AppAuthManager.authorizeWeb drops `claims` for the permission flow and sends promptWeb.
        let harness = try makeNetIdHarness()
        var config = harness.config
        config.claims = #"{"userinfo":{"email":{"essential":true}}}"#
        config.promptWeb = "consent"
        harness.app.initialize(with: config)
        harness.app.authorize(.Permission)
        harness.app.authorize(.LoginPermission)
        _ = await harness.log.waitForEvents(4)
        let requests = harness.provider.requests(to: .authorization)
        XCTAssertEqual(requests.map { $0.parameters["scope"] }, ["permission_management", "openid permission_management"])
        XCTAssertEqual(requests.map { $0.parameters["claims"] }, [nil, config.claims])
        XCTAssertEqual(requests.map { $0.parameters["prompt"] }, ["consent", "consent"])
    }

    /// A token the provider refuses is refreshed once (MIGRATION: "A refused access token is
    /// refreshed once"); `NoAuth` comes only when the new token is refused too.
    func testAnInvalidAccessTokenFromSetAccessTokenIsRefreshedOnceThenNoAuth() async throws {
        let harness = try makeNetIdHarness()
        let before = await harness.signedIn()
        harness.app.setExpiredAccessToken()
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(before + 1)
        XCTAssertEqual(harness.log.transcript.last, "L1.didFetchUserInfo(sub=erika given_name=Erika)")
        XCTAssertEqual(harness.provider.requests(to: .userInfo).map(\.authorization).first, "Bearer an-invalid-token")
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 2)

        harness.app.setExpiredAccessToken()
        harness.provider.inject(.status(401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#]), at: .userInfo, times: 2)
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(before + 2)
        XCTAssertEqual(harness.log.transcript.last, "L1.didFetchUserInfoWithError(NoAuth/UserInfo)")
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 4, "one refresh, one more try, no loop")
    }

    func testEndSessionClearsLocallyWithoutAServerCall() async throws {
        let harness = try makeNetIdHarness()
        let before = await harness.signedIn()
        harness.app.endSession()
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(before + 2)
        XCTAssertEqual(harness.events(after: before), ["L1.didEndSession()", "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"])
        XCTAssertTrue(harness.provider.requests(to: .revocation).isEmpty)
        let stored = try await harness.store.load()
        XCTAssertNil(stored)
    }

    func testEndSessionRightAfterInitializeLeavesAnInitializedServiceWithoutSession() async throws {
        // netID's button example app ends any old session right after initialize.
        let store = InMemoryTokenStore()
        let first = try makeNetIdHarness(store: store)
        _ = await first.signedIn()
        let second = try makeNetIdHarness(store: store)
        second.app.initialize(with: first.config)
        second.app.endSession()
        second.app.loadUserInfo()
        _ = await second.log.waitForEvents(4)
        XCTAssertEqual(second.log.transcript, [
            "L1.didFinishInitializationWithError(nil)", "L1.didFinishAuthentication(token)",
            "L1.didEndSession()", "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
        ])
    }

    func testResumeSessionCompletesAnAuthorizationWithoutAgent() async throws {
        let harness = try makeNetIdHarness()
        var opened = harness.openedAuthorizationURLs()
        harness.app.initialize(with: harness.config)
        harness.app.authorize(.Login)
        let redirect = try await harness.redirect(after: await opened.next())
        harness.app.resume(URL(string: "com.example.other:/callback?code=x")!)
        harness.app.resume(redirect)
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, ["L1.didFinishInitializationWithError(nil)", "L1.didFinishAuthentication(token)"])
        XCTAssertNotNil(harness.app.accessToken)
    }
}

import Foundation
import NetIdCompat
import SessionCore
import SessionPermissions
import SessionTesting
import XCTest

/// Which netID callback each failure produces, per operation: a connection that cannot open, a
/// timeout, a broken connection, an HTTP error, an unreadable body. The reference is
/// netid-sdk-ios 1.2.0: `NetIdService.handleConnection` (no connection: didEncounterNetworkError
/// only), `AppAuthManager.fetchConfiguration`, `UserInfoManager` and `PermissionManager` with
/// `Webservice.performRequest`.
final class NetIdFailureTests: XCTestCase {
    private static let closedPort = URL(string: "http://127.0.0.1:1")!

    func testInitializeFailures() async throws {
        let cases: [(LocalProvider.Fault?, String)] = [
            (nil, "L1.didEncounterNetworkError(NetworkError/Configuration)"),
            (.dropConnection, "L1.didFinishInitializationWithError(InvalidDiscoveryDocument/Configuration)"),
            (.delay(3), "L1.didFinishInitializationWithError(InvalidDiscoveryDocument/Configuration)"),
            (.status(500), "L1.didFinishInitializationWithError(InvalidDiscoveryDocument/Configuration)"),
            (.malformedBody, "L1.didFinishInitializationWithError(InvalidDiscoveryDocument/Configuration)"),
        ]
        for (fault, expected) in cases {
            let harness = try makeNetIdHarness(transportTimeout: 1)
            var config = harness.config
            if let fault { harness.provider.inject(fault, at: .discovery) } else { config.issuer = Self.closedPort }
            harness.app.initialize(with: config)
            _ = await harness.log.waitForEvents(1)
            XCTAssertEqual(harness.log.transcript, [expected], "\(String(describing: fault))")
            XCTAssertNil(harness.app.currentConfig, "a failed initialize can be retried")
        }
    }

    func testAnInvalidConfigurationIsAnInitializationError() async throws {
        let harness = try makeNetIdHarness()
        var config = harness.config
        config.redirectUri = "http://example.com/not-loopback"
        // A failed initialize is forgotten when its outcome is handled on the callback queue; holding
        // that queue makes "at once" a fact of the call, not of which thread runs first.
        let callbacks = harness.netId.service.callbackQueue
        callbacks.suspend()
        harness.app.initialize(with: config)
        XCTAssertEqual(harness.app.currentConfig?.redirectUri, config.redirectUri, "netID returns the configuration at once")
        harness.netId.initialize(harness.config)
        callbacks.resume()
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFinishInitializationWithError(InitializationError/Configuration)",
            "L1.didFinishInitializationWithError(nil)",
        ])
        XCTAssertEqual(harness.app.currentConfig?.redirectUri, harness.config.redirectUri,
                       "the failed call's configuration is forgotten, the later successful one kept")
    }

    func testUserInfoFailures() async throws {
        // UserInfoManager: every failed request is NoAuth; an unreadable body JsonDeserializationError.
        let cases: [(LocalProvider.Fault, String)] = [
            (.dropConnection, "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"),
            (.delay(3), "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"),
            (.status(500), "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"),
            (.status(401), "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"),
            (.malformedBody, "L1.didFetchUserInfoWithError(JsonDeserializationError/UserInfo)"),
            // netID decoded shipping_address with the rest: one it cannot read fails the whole answer.
            (.status(200, body: #"{"sub":"erika","shipping_address":"Hauptstr. 1"}"#), "L1.didFetchUserInfoWithError(JsonDeserializationError/UserInfo)"),
        ]
        for (fault, expected) in cases {
            let harness = try makeNetIdHarness(transportTimeout: 1)
            let before = await harness.signedIn()
            // A dropped kept-alive GET is retried once: the provider drops every attempt.
            harness.provider.inject(fault, at: .userInfo, times: fault == .dropConnection ? nil : 1)
            harness.app.loadUserInfo()
            _ = await harness.log.waitForEvents(before + 1)
            XCTAssertEqual(harness.events(after: before), [expected], "\(fault)")
        }
    }

    func testAProviderThatCannotBeReachedIsOnlyDidEncounterNetworkError() async throws {
        let harness = try makeNetIdHarness(permissionCenter: try PermissionCenterEndpoints(
            read: Self.closedPort.appendingPathComponent("read"), write: Self.closedPort.appendingPathComponent("write")))
        let before = await harness.signedIn()
        harness.app.loadPermissions()
        harness.app.updatePermissions(.VALID)
        _ = await harness.log.waitForEvents(before + 2)
        harness.provider.stop()
        harness.app.loadUserInfo()
        _ = await harness.log.waitForEvents(before + 3)
        XCTAssertEqual(harness.events(after: before), [
            "L1.didEncounterNetworkError(NetworkError/PermissionRead)",
            "L1.didEncounterNetworkError(NetworkError/PermissionWrite)",
            "L1.didEncounterNetworkError(NetworkError/UserInfo)",
        ])
    }

    func testPermissionFailures() async throws {
        // Webservice: a failed request is (UNKNOWN, Unknown); an HTTP error carries the body's
        // status_code with InvalidRequest (Other for TPID_EXISTENCE_ERROR); PermissionManager: an
        // unreadable success is (UNKNOWN, JsonDeserializationError).
        let cases: [(LocalProvider.Fault, String, String)] = [
            (.dropConnection, "UNKNOWN Unknown", "UNKNOWN Unknown"),
            (.delay(3), "UNKNOWN Unknown", "UNKNOWN Unknown"),
            (.status(400, body: #"{"status_code":"PERMISSION_PARAMETERS_ERROR"}"#), "PERMISSION_PARAMETERS_ERROR InvalidRequest",
             "PERMISSION_PARAMETERS_ERROR InvalidRequest"),
            (.status(404, body: #"{"status_code":"TPID_EXISTENCE_ERROR"}"#), "TPID_EXISTENCE_ERROR Other", "TPID_EXISTENCE_ERROR Other"),
            (.status(403, body: #"{"status_code":"ID_CONSENT_REQUIRED"}"#), "ID_CONSENT_REQUIRED InvalidRequest",
             "ID_CONSENT_REQUIRED InvalidRequest"),
            (.status(401, body: #"{"status_code":"TOKEN_ERROR"}"#), "TOKEN_ERROR InvalidRequest", "TOKEN_ERROR InvalidRequest"),
            (.malformedBody, "UNKNOWN JsonDeserializationError", "UNKNOWN JsonDeserializationError"),
        ]
        for (fault, read, write) in cases {
            let harness = try makeNetIdHarness(transportTimeout: 1)
            let before = await harness.signedIn()
            harness.provider.inject(fault, at: .permissionRead, times: fault == .dropConnection ? nil : 1)
            harness.provider.inject(fault, at: .permissionWrite)
            harness.app.loadPermissions()
            harness.app.updatePermissions(.VALID)
            _ = await harness.log.waitForEvents(before + 2)
            XCTAssertEqual(harness.events(after: before), [
                "L1.didFetchPermissionsWithError(\(read)/PermissionRead)",
                "L1.didUpdatePermissionWithError(\(write)/PermissionWrite)",
            ], "\(fault)")
        }
    }

    func testPermissionCallsWithoutASessionReportTokenError() async throws {
        // NetIdService.fetchPermissions / updatePermission without a permission token.
        let harness = try makeNetIdHarness()
        harness.app.initialize(with: harness.config)
        harness.app.loadPermissions()
        harness.app.updatePermissions(.VALID)
        _ = await harness.log.waitForEvents(3)
        XCTAssertEqual(harness.events(after: 1), [
            "L1.didFetchPermissionsWithError(TOKEN_ERROR UnauthorizedClient/PermissionRead)",
            "L1.didUpdatePermissionWithError(TOKEN_ERROR UnauthorizedClient/PermissionWrite)",
        ])
    }

    func testCallsBeforeInitializeFailAsNetIdsDo() async throws {
        // netID without an initialize: fetchUserInfo is NoAuth, the permission calls TOKEN_ERROR.
        let harness = try makeNetIdHarness()
        harness.netId.registerListener(harness.app)
        harness.app.loadUserInfo()
        harness.app.loadPermissions()
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, [
            "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
            "L1.didFetchPermissionsWithError(TOKEN_ERROR UnauthorizedClient/PermissionRead)",
        ])
    }
}

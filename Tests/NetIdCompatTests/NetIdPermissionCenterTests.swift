import Foundation
import NetIdCompat
import SessionCore
import SessionPermissions
import SessionTesting
import XCTest

/// What reaches the permission center, on the wire: netID's permission token
/// (`AppAuthManager.getPermissionToken`, `TokenUtil.getPermissionTokenFrom`) and netID's
/// `q.identifier.in` (`FetchOptionsUtil.queryParameterValue`). LocalProvider's permission center
/// accepts only the token netID sends, so these calls fail with any other.
final class NetIdPermissionCenterTests: XCTestCase {
    func testASessionWithAnIDTokenSendsThePermissionTokenItCarries() async throws {
        let harness = try makeNetIdHarness()
        let before = await harness.signedIn(.LoginPermission)
        harness.app.loadPermissions()
        harness.app.updatePermissions(.INVALID, tcString: "CPtest")
        harness.app.loadPermissions()
        _ = await harness.log.waitForEvents(before + 3)
        XCTAssertEqual(harness.events(after: before), [
            "L1.didFetchPermissions(PERMISSIONS_FOUND idconsent=VALID tpid=tpid-erika)",
            "L1.didUpdatePermission(tpid=tpid-erika)",
            "L1.didFetchPermissions(PERMISSIONS_FOUND idconsent=INVALID tpid=tpid-erika)",
        ])
        XCTAssertEqual(harness.app.permissions?.netIdPrivacySettings?.iabTcString?.value, "CPtest")

        let stored = try await harness.storedTokens()
        let claim = stored.idTokenClaims?["permission_management"]?.objectValue?["access_token"]?.stringValue
        let permissionToken = try XCTUnwrap(claim, "LocalProvider puts netID's claim into the ID token")
        XCTAssertNotEqual(permissionToken, stored.access)
        let sent = (harness.provider.requests(to: .permissionRead) + harness.provider.requests(to: .permissionWrite)).map { $0.authorization }
        XCTAssertEqual(sent, Array(repeating: "Bearer \(permissionToken)", count: 3))
        XCTAssertFalse(harness.provider.acceptsAtPermissionCenter(stored.access), "the access token alone would be refused")
    }

    func testASessionWithoutIDTokenSendsTheAccessToken() async throws {
        let harness = try makeNetIdHarness()
        let before = await harness.signedIn(.Permission)
        harness.app.loadPermissions()
        _ = await harness.log.waitForEvents(before + 1)
        XCTAssertEqual(harness.events(after: before), ["L1.didFetchPermissions(PERMISSIONS_FOUND idconsent=VALID tpid=tpid-erika)"])
        let stored = try await harness.storedTokens()
        XCTAssertNil(stored.idTokenClaims)
        XCTAssertEqual(harness.provider.requests(to: .permissionRead).map { $0.authorization }, ["Bearer \(stored.access)"])
    }

    func testALoginWithoutThePermissionScopeHasNoPermissionToken() async throws {
        let harness = try makeNetIdHarness()
        let before = await harness.signedIn(.Login)
        harness.app.loadPermissions()
        harness.app.updatePermissions(.VALID)
        _ = await harness.log.waitForEvents(before + 2)
        XCTAssertEqual(harness.events(after: before), [
            "L1.didFetchPermissionsWithError(TOKEN_ERROR UnauthorizedClient/PermissionRead)",
            "L1.didUpdatePermissionWithError(TOKEN_ERROR UnauthorizedClient/PermissionWrite)",
        ])
        XCTAssertTrue(harness.provider.requests(to: .permissionRead).isEmpty, "nothing is sent without a permission token")
        XCTAssertTrue(harness.provider.requests(to: .permissionWrite).isEmpty)
    }

    func testTheIdentifierQueryIsNetIds() async throws {
        let harness = try makeNetIdHarness()
        let before = await harness.signedIn()
        let netId = harness.netId
        netId.fetchPermissions()
        netId.fetchPermissions(collapseSyncId: false)
        netId.fetchPermissions(collapseSyncId: true, fetchOptions: [.encryptedTagProtocolIdentifier])
        netId.fetchPermissions(collapseSyncId: false, fetchOptions: [.tagProtocolIdentifier])
        netId.fetchPermissions(fetchOptions: [.encryptedTagProtocolIdentifier, .synchronizationIdentifier, .tagProtocolIdentifier])
        netId.updatePermission(NetIdPermissionUpdate(idConsent: .VALID, iabTc: nil))
        netId.updatePermission(NetIdPermissionUpdate(idConsent: .VALID, iabTc: nil), collapseSyncId: false)
        netId.updatePermission(NetIdPermissionUpdate(idConsent: .VALID, iabTc: nil), collapseSyncId: false,
                               fetchOptions: [.synchronizationIdentifier])
        _ = await harness.log.waitForEvents(before + 8)
        XCTAssertEqual(harness.provider.requests(to: .permissionRead).map { $0.parameters["q.identifier.in"] },
                       ["TPID", "TPID,SYNC_ID", "ETPID", "TPID", "TPID,SYNC_ID,ETPID"])
        XCTAssertEqual(harness.provider.requests(to: .permissionWrite).map { $0.parameters["q.identifier.in"] },
                       ["TPID", "TPID,SYNC_ID", "SYNC_ID"])
        XCTAssertEqual(harness.app.lastIdentifiers?.syncId, "sync-erika", "the write answers with the identifiers asked for")
        XCTAssertNil(harness.app.lastIdentifiers?.tpId)
    }
}

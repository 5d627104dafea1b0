import Foundation
import NetIdCompat
import SessionCore
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

// A file in the middle of a migration imports netID's names and SessionCore's. The names both
// declare (UserInfo, Address, SubjectIdentifiers, PermissionReadResponse) are then written with
// their module, here through typealiases.
typealias NetIdUserInfo = NetIdCompat.UserInfo
typealias CoreUserInfo = SessionCore.UserInfo

/// A legacy listener still written against netID's types.
private final class ProfileScreen: NetIdServiceDelegate {
    var onUserInfo: ((NetIdUserInfo) -> Void)?
    func didFetchUserInfo(_ userInfo: NetIdUserInfo) { onUserInfo?(userInfo) }
    func didFetchPermissions(_ permissions: NetIdCompat.PermissionReadResponse) {}
    func didFetchPermissionsWithError(_ status: NetIdCompat.PermissionResponseStatus, _ error: NetIdError) {}
    func didUpdatePermission(_ subjectIdentifiers: NetIdCompat.SubjectIdentifiers) {}
}

final class BothModulesTests: XCTestCase {
    func testAFileImportingNetIdCompatAndSessionCoreNamesSharedTypesByModule() async throws {
        let harness = try makeNetIdHarness()
        _ = await harness.signedIn()
        let screen = ProfileScreen()
        harness.netId.registerListener(screen)
        let heard = expectation(description: "netID's UserInfo")
        var legacy: NetIdUserInfo?
        screen.onUserInfo = { legacy = $0; heard.fulfill() }
        harness.netId.fetchUserInfo()
        await fulfillment(of: [heard], timeout: 10)

        // The migrated call, on the SessionService underneath, returns SessionCore's type.
        let migrated: CoreUserInfo = try await harness.netId.service.fetchUserInfo()
        let permissions: SessionPermissions.PermissionReadResponse = try await harness.netId.service.fetchPermissions()
        XCTAssertEqual(legacy?.sub, migrated.sub)
        XCTAssertEqual(legacy?.givenName, migrated.givenName)
        XCTAssertEqual(permissions.statusCode, SessionPermissions.PermissionCenterStatus.permissionsFound)
    }
}

import Foundation
import SessionCore
import SessionFacade
import SessionPermissions
import SessionTesting
import XCTest

/// The permission operations go to the permission center `initialize` was given, and fail
/// clearly without one, while the rest of the session works.
final class PermissionCenterSetupTests: XCTestCase {
    func testWithoutAPermissionCenterThePermissionOperationsAreAConfigurationError() async throws {
        let facade = try makeFacade()
        try await facade.service.initialize(facade.configuration)
        _ = try await facade.service.getAuthorization(flow: .loginPermission, agent: HeadlessUserAgent())
        do {
            _ = try await facade.service.fetchPermissions()
            XCTFail("no permission center")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .invalidConfiguration)
            XCTAssertEqual(error.process, .permissionRead)
        }
        do {
            _ = try await facade.service.updatePermissions(PermissionUpdate(idConsent: .valid))
            XCTFail("no permission center")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .invalidConfiguration)
            XCTAssertEqual(error.process, .permissionWrite)
        }
        let info = try await facade.service.fetchUserInfo()
        XCTAssertEqual(info.sub, "erika")
        XCTAssertTrue(facade.provider.requests(to: .permissionRead).isEmpty)
    }

    func testThePermissionCenterGivenToInitializeIsTheOneAsked() async throws {
        let facade = try makeFacade()
        try await facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter)
        _ = try await facade.service.getAuthorization(flow: .loginPermission, agent: HeadlessUserAgent())
        let permissions = try await facade.service.fetchPermissions()
        XCTAssertEqual(permissions.statusCode, .permissionsFound)
        XCTAssertEqual(facade.provider.requests(to: .permissionRead).count, 1)
    }
}

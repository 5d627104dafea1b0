import Foundation
import SessionCore
import SessionPermissions
import SessionTesting
import XCTest

/// Every URL written into the package's source parses (URL(constant:) stops on one that does
/// not): reading each constant here is that check.
final class ConstantURLTests: XCTestCase {
    func testTheConstantURLsAreTheServicesTheyName() {
        XCTAssertEqual(PermissionCenterEndpoints.netID.read.absoluteString, "https://einwilligungsspeicher.netid.de/netid-user-status")
        XCTAssertEqual(PermissionCenterEndpoints.netID.write.absoluteString, "https://einwilligen.netid.de/netid-permissions")
        XCTAssertEqual(LocalProvider.Client.demo.redirectURIs.map(\.absoluteString),
                       ["com.example.sessiondemo:/callback", "http://127.0.0.1/callback"])
    }
}

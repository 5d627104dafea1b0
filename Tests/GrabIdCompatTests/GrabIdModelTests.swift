import Foundation
import GrabIdCompat
import XCTest

/// GrabID's error enums keep their legacy raw values.
final class GrabIdModelTests: XCTestCase {
    func testErrorRawValuesAreGrabIds() {
        XCTAssertEqual(GrabIdPartnerErrorCode.grabIdServiceFailed.rawValue, 0)
        XCTAssertEqual(GrabIdPartnerErrorCode.securityValidationFailed.rawValue, 5)
        XCTAssertEqual(GrabIdPartnerErrorCode.invalidClientId.rawValue, 12)
        XCTAssertEqual(GrabIdPartnerErrorCode.invalidServiceDiscoveryUrl.rawValue, 24)
        XCTAssertEqual(GrabIdPartnerErrorCode.launchAppStoreLink.rawValue, 28)
        XCTAssertEqual(GrabIdPartnerErrorCode.partnerAppError.rawValue, 10000)
        XCTAssertEqual(GrabIdPartnerErrorDomain.serviceDiscovery.rawValue, 0)
        XCTAssertEqual(GrabIdPartnerErrorDomain.appStore.rawValue, 8)
    }
}

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

    /// An addition for a confidential client on a server: passed to the token endpoint, never archived.
    func testClientAuthenticationIsNeverArchived() throws {
        let session = LoginSession(clientId: "c", redirectUrl: try XCTUnwrap(URL(string: "grabtest://open")), scope: "openid",
                                   serviceDiscoveryUrl: "https://example.com")
        session.clientAuthentication = .clientSecretBasic("server-secret")
        let archive = try NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: false)
        XCTAssertNil(archive.range(of: Data("server-secret".utf8)))
        XCTAssertEqual(session.clientAuthentication, .clientSecretBasic("server-secret"))
    }
}

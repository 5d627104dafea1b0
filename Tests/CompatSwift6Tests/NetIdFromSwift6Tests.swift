// netID's public API from Swift 6 language mode: a subclass of the open service, the models and
// the enums, without a concurrency annotation or a warning (CI builds with -warnings-as-errors).
import Foundation
import NetIdCompat
import XCTest

/// A test double of the kind apps derive from netID's open service class.
final class Swift6NetIdServiceDouble: NetIdService {
    var fetched = 0
    func recordFetch() { fetched += 1 }
}

final class NetIdFromSwift6Tests: XCTestCase {
    func testTheServiceCanBeSubclassedAndItsModelsUsed() throws {
        let double = Swift6NetIdServiceDouble()
        double.recordFetch()
        double.setLayerStyle(.Outline)
        XCTAssertEqual(double.getLayerStyle(), .Outline)
        XCTAssertEqual(double.fetched, 1)

        let response = try JSONDecoder().decode(PermissionReadResponse.self, from: Data(#"{"status_code":"NO_TPID"}"#.utf8))
        let advice: String = switch response.statusCode {
        case .PERMISSIONS_FOUND, .PERMISSIONS_NOT_FOUND: "show"
        case .NO_TOKEN, .TOKEN_ERROR: "sign in"
        case .NO_TPID, .NO_TAPP_ID, .TAPP_ERROR, .TAPP_NOT_ALLOWED, .TPID_EXISTENCE_ERROR, .ID_CONSENT_REQUIRED: "support"
        case .PERMISSION_PARAMETERS_ERROR, .NO_PERMISSIONS, .JSON_PARSE_ERROR, .NO_REQUEST_BODY, .UNKNOWN: "retry"
        }
        XCTAssertEqual(advice, "support")
        let info = UserInfo(sub: "s", birthdate: "2000-01-01", emailVerified: false,
                            address: Address(streetAddress: "a", country: "b", formatted: "c", locality: "d", postalCode: "e"),
                            gender: "f", shippingAddress: ShippingAddress(streetAddress: "a", country: "b", formatted: "c", locality: "d",
                                                                          postalCode: "e", recipient: "g"),
                            givenName: "h", familyName: "i", email: "j")
        let sent: @Sendable () -> String = { info.description }
        XCTAssertTrue(sent().contains(#""recipient":"g""#))
    }
}

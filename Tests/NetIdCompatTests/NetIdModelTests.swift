import Foundation
import NetIdCompat
import XCTest

/// netID's models keep netID's raw values and JSON keys.
final class NetIdModelTests: XCTestCase {
    func testPermissionReadResponseDecodesNetIdJSON() throws {
        let json = """
            {"status_code":"PERMISSIONS_FOUND","subject_identifiers":{"tpid":"t1","sync_id":"s1","etpid":"e1"},
             "netid_privacy_settings":{"idconsent":{"status":"VALID","changed_at":"2026-01-01T00:00:00Z"},
                                       "iab_tcstring":{"value":"CPtest","changed_at":"2026-01-02T00:00:00Z"}}}
            """
        let response = try JSONDecoder().decode(PermissionReadResponse.self, from: Data(json.utf8))
        XCTAssertEqual(response.statusCode.rawValue, "PERMISSIONS_FOUND")
        XCTAssertEqual(response.subjectIdentifiers, SubjectIdentifiers(tpId: "t1", syncId: "s1", eTpId: "e1"))
        XCTAssertEqual(response.netIdPrivacySettings?.idConsent, IdConsent(status: .VALID, changedAt: "2026-01-01T00:00:00Z"))
        XCTAssertEqual(response.netIdPrivacySettings?.iabTcString, IabTcString(value: "CPtest", changedAt: "2026-01-02T00:00:00Z"))
    }

    func testPermissionUpdateEncodesNetIdKeys() throws {
        let data = try JSONEncoder().encode(NetIdPermissionUpdate(idConsent: .INVALID, iabTc: "CPtest"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: String])
        XCTAssertEqual(object, ["idconsent": "INVALID", "iab_tc_string": "CPtest"])
    }

    func testRawValuesAreNetIds() {
        XCTAssertEqual(NetIdIdentifierOption.allCases.map { $0.rawValue }, ["TPID", "SYNC_ID", "ETPID"])
        XCTAssertEqual(NetIdErrorCode.AuthorizationCanceledByUser.rawValue, "AuthorizationCanceledByUser")
        XCTAssertEqual(NetIdErrorCode.allCases.count, 21)
        XCTAssertEqual(NetIdErrorProcess.allCases.map { $0.rawValue }, ["Configuration", "Authentication", "UserInfo", "PermissionRead", "PermissionWrite"])
        XCTAssertEqual(PermissionResponseStatus.allCases.map { $0.rawValue }, [
            "PERMISSIONS_FOUND", "PERMISSIONS_NOT_FOUND", "PERMISSION_PARAMETERS_ERROR", "NO_TOKEN", "TOKEN_ERROR", "NO_PERMISSIONS",
            "JSON_PARSE_ERROR", "NO_REQUEST_BODY", "TAPP_NOT_ALLOWED", "TPID_EXISTENCE_ERROR", "UNKNOWN",
        ])
        XCTAssertEqual(NetIdConfig(clientId: "c", redirectUri: "r", claims: nil, promptWeb: nil, loginLayerConfig: nil,
                                   permissionLayerConfig: nil).issuer.absoluteString, "https://broker.netid.de")
    }
}

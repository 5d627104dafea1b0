@testable import GrabIdCompat
import SessionCore
import XCTest

/// Every refusal of an ID token reaches a GrabID app as GrabID's `invalidIdToken` (a wrong nonce
/// as `invalidNonce`), including refusals the core added after the mapping was written.
final class GrabIdErrorMappingTests: XCTestCase {
    func testEveryIDTokenRefusalIsInvalidIdToken() {
        let refusals = SessionError.Code.allCases.filter { $0.rawValue.hasPrefix("idToken") }
        XCTAssertTrue(refusals.contains(.idTokenNotYetValid))
        for code in refusals {
            let error = GrabIdPartnerError(SessionError(code, process: .authentication, message: "test"), domain: .exchangeToken)
            XCTAssertEqual(error.code, code == .idTokenNonceMismatch ? .invalidNonce : .invalidIdToken, code.rawValue)
        }
    }
}

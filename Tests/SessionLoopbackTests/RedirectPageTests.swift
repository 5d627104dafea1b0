import Foundation
@testable import SessionCore
@testable import SessionLoopback
import XCTest

/// The loopback listener's page when the agent only has a finished authorization URL: judged by
/// `state`, then `error` or `code`.
final class RedirectPageTests: XCTestCase {
    private let authorization = URL(string: "http://127.0.0.1:9/authorize?client_id=c&state=s1&redirect_uri=x")!

    private func problem(_ query: String) -> SessionError.Code? {
        RedirectPage.problem(with: URL(string: "http://127.0.0.1:8/cb?\(query)")!, authorizationURL: authorization)?.code
    }

    func testAFinishedURLsRedirectIsJudgedByStateThenErrorOrCode() {
        XCTAssertNil(problem("code=abc&state=s1"))
        XCTAssertEqual(problem("code=abc&state=s2"), .stateMismatch)
        XCTAssertEqual(problem("code=abc"), .stateMismatch)
        XCTAssertEqual(problem("error=access_denied&state=s1"), .accessDenied)
        XCTAssertEqual(problem("state=s1"), .missingAuthorizationCode)
    }

    func testTheProvidersErrorCodeIsShownWithoutMarkupOrExcess() {
        XCTAssertEqual(RedirectPage.safeCode("invalid_scope"), "invalid_scope")
        XCTAssertEqual(RedirectPage.safeCode("<script>x</script>é\""), "scriptxscript")
        XCTAssertEqual(RedirectPage.safeCode(String(repeating: "a", count: 100)).count, 64)
        let page = RedirectPage.html(for: SessionError(.oauthError, process: .authentication, message: "m", oauthError: "<img src=x>"))
        XCTAssertFalse(page.contains("<img"))
        XCTAssertTrue(page.contains("(imgsrcx)"), page)
    }
}

import DemoTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// `session-demo --issuer` against django-oauth-toolkit: the demo prints the sign-in URL and
/// waits on its loopback redirect; this test plays the browser (login and consent form posts).
final class SessionDemoInteropTests: XCTestCase {
    func testTheWalkAgainstARealProvider() async throws {
        let environment = try InteropEnvironment.load()
        let browser = HeadlessUserAgent(pageHandler: DjangoUser.pages(username: environment.username, password: environment.password,
                                                                      approves: true))
        let run = try await DemoProcess.run(
            ["--issuer", environment.issuer.absoluteString, "--client-id", environment.clientID, "--scope", "profile email", "--no-browser"],
            onErrorLine: { line in
                guard let range = line.range(of: "Open this URL in a browser to sign in: "),
                      let url = URL(string: String(line[range.upperBound...])) else { return }
                Task {
                    guard let redirect = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                        .first(where: { $0.name == "redirect_uri" })?.value.flatMap(URL.init(string:)),
                          let callback = try? await browser.authorize(url: url, redirectURI: redirect) else { return }
                    _ = try? await CurlTransport(timeout: 10).send(HTTPRequest(method: "GET", url: callback))
                }
            })
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertEqual(run.callbackNames, [
            "didFinishInitializationWithError", "didFinishAuthentication", "didFetchUserInfo", "didFetchUserInfo", "didEndSession",
        ])
        XCTAssertTrue(run.output.contains("didFetchUserInfo: sub=\(environment.subject), Alice Interop <alice@example.com>"), run.output)
        XCTAssertTrue(run.output.contains("permission steps skipped"), run.output)
    }
}

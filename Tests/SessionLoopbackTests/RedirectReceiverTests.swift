import Foundation
@testable import SessionCore
@testable import SessionLoopback
import XCTest

/// The listener's pages while the client has not yet judged the redirect.
final class RedirectReceiverTests: XCTestCase {
    /// A second request for a sign-out page, arriving before the client has judged the first,
    /// is told of a sign-out, not of a sign-in.
    func testARedirectReceivedBeforeTheJudgementIsToldWhatItWasFor() async throws {
        let receiver = try RedirectReceiver(redirectURI: URL(string: "http://127.0.0.1/callback")!, purpose: .signOut)
        receiver.expect(state: nil)
        let transport = CurlTransport(timeout: 40)
        let callback = receiver.redirectURI.absoluteString + "?state=s"
        let first = Task { try await transport.send(HTTPRequest(method: "GET", url: URL(string: callback)!)) }
        _ = try await receiver.wait(timeout: 20)
        let second = try await transport.send(HTTPRequest(method: "GET", url: URL(string: callback)!))
        XCTAssertTrue(String(decoding: second.body, as: UTF8.self).contains("<title>Signed out</title>"))
        await receiver.finish(page: RedirectPage.html(for: .accepted, purpose: .signOut))
        let firstPage = String(decoding: try await first.value.body, as: UTF8.self)
        XCTAssertTrue(firstPage.contains("<title>Signed out</title>"), firstPage)
    }
}

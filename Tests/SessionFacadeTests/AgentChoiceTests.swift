import Foundation
import SessionCore
import SessionWebAuthentication
import SessionFacade
import SessionTesting
import XCTest

/// The agent a legacy API signs in with: the platform default (none on Linux) until the app
/// sets one, and then that one, nil included, whatever view controller the call names.
final class AgentChoiceTests: XCTestCase {
    private final class Controller {}

    func testTheAppsChoiceWinsOverAnyAnchor() {
        let chosen = AgentChoice.chosen(HeadlessUserAgent())
        XCTAssertTrue(chosen.agent is HeadlessUserAgent)
        XCTAssertTrue(chosen.agent(presentingFrom: Controller()) is HeadlessUserAgent)
        XCTAssertNil(AgentChoice.chosen(nil).agent(presentingFrom: Controller()), "nil is a choice: the app opens the page")
    }

    func testWithoutAnInAppBrowserTheDefaultLeavesThePageToTheApp() throws {
        #if canImport(AuthenticationServices)
        throw XCTSkip("Apple platforms have a default agent")
        #else
        XCTAssertNil(PlatformDefaults.authorizationAgent)
        XCTAssertNil(AgentChoice.platformDefault.agent)
        XCTAssertNil(AgentChoice.platformDefault.agent(presentingFrom: Controller()))
        #endif
    }
}

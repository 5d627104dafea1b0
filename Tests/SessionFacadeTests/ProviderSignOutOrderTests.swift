import Foundation
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// C17: `endSession` that also signs out of the provider reports the local end first, then, if
/// the provider's page failed, `didFailToEndProviderSession` with the completion's error.
final class ProviderSignOutOrderTests: XCTestCase {
    private struct FailingAgent: AuthorizationAgent {
        func authorize(url: URL, redirectURI: URL) async throws -> URL { throw SessionError.cancelled() }
    }

    func testTheProvidersSessionEndsToo_C17() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        await facade.signIn(.login)
        facade.service.endSession(endingProviderSessionWith: HeadlessUserAgent(), completion: facade.log.completion("endSession"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, ["A.didEndSession()", "completion.endSession(success)"])
        XCTAssertEqual(facade.provider.endedSessions, 1)
    }

    func testAFailedProviderStepIsHeardAfterTheLocalEnd_C17() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        await facade.signIn(.login)
        facade.service.endSession(endingProviderSessionWith: FailingAgent(), completion: facade.log.completion("endSession"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didEndSession()", "A.didFailToEndProviderSession(providerSignOutIncomplete)", "completion.endSession(providerSignOutIncomplete)",
        ])
        let stored = try await facade.store.load()
        XCTAssertNil(stored)
    }
}

import Dispatch
import Foundation
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// The spelling the contract supports for a `@MainActor` listener in Swift 6 mode: the class is
/// main-actor isolated, its conformance is `@preconcurrency`, and the service delivers on
/// `DispatchQueue.main`, so every callback runs on the main actor and the runtime check that
/// `@preconcurrency` adds always passes.
@MainActor
final class SignInViewModel {
    enum State: Equatable { case idle, ready, signedIn, failed(SessionError.Code), user(String) }

    private(set) var state = State.idle
    /// Called after each change, for the test to wait on.
    var onChange: ((State) -> Void)?

    private func set(_ new: State) {
        state = new
        onChange?(new)
    }
}

extension SignInViewModel: @preconcurrency SessionServiceDelegate {
    func didFinishInitializationWithError(_ error: SessionError?) { set(error.map { .failed($0.code) } ?? .ready) }
    func didFinishAuthentication(_ accessToken: String) { set(.signedIn) }
    func didFinishAuthenticationWithError(_ error: SessionError) { set(.failed(error.code)) }
    func didFetchUserInfo(_ userInfo: UserInfo) { set(.user(userInfo.sub)) }
}

final class MainActorListenerTests: XCTestCase {
    @MainActor
    func testAMainActorViewModelListensOnTheMainQueue() async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let transport = CurlTransport(timeout: 5)
        let service = SessionService(store: { _ in InMemoryTokenStore() }, transport: transport, agent: HeadlessUserAgent(transport: transport))
        service.callbackQueue = .main
        let model = SignInViewModel()
        service.registerListener(model)

        var seen: [SignInViewModel.State] = []
        let done = expectation(description: "the view model saw the user")
        model.onChange = { state in
            MainActor.preconditionIsolated("a listener callback runs on the main actor")
            seen.append(state)
            if case .user = state { done.fulfill() }
        }
        // In an async context a bare call is the awaited form; `completion: nil` is the
        // listener-only one.
        service.initialize(try provider.configuration(), completion: nil)
        service.getAuthorization(completion: nil)
        service.fetchUserInfo(completion: nil)
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(seen, [.ready, .signedIn, .user("erika")])
        XCTAssertEqual(model.state, .user("erika"))
    }
}

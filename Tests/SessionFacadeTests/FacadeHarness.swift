import Dispatch
import Foundation
import SessionCore
import SessionFacade
import SessionFacadeTesting
import SessionPermissions
import SessionTesting
import XCTest

/// A SessionService on a LocalProvider over loopback, with listener "A" recording into `log`
/// on the serial queue `callbacks`.
///
/// Shared state: every harness makes its own `SessionService` (never `SessionService.shared`),
/// and tests read state only after the outcome they check has been delivered (`waitForEvents`).
struct FacadeHarness {
    static let queueLabel = "facade-tests.callbacks"

    let provider: LocalProvider
    let service: SessionService
    let log: CallbackLog
    let listener: RecordingListener
    let store: InMemoryTokenStore
    let clock: ManualClock
    let configuration: SessionConfiguration
    /// The provider's permission center, which `initialize` passes on.
    let permissionCenter: PermissionCenterEndpoints

    /// Initializes and waits for the outcome (2 events), then clears nothing: transcripts
    /// of the scenario start after these.
    func initialize() async {
        service.initialize(configuration, permissionCenter: permissionCenter, completion: log.completion("initialize"))
        _ = await log.waitForEvents(log.recorded.count + 2)
    }

    /// Signs in through the headless agent and waits for the outcome.
    func signIn(_ flow: AuthFlow = .loginPermission) async {
        let before = log.recorded.count
        service.getAuthorization(flow: flow, agent: HeadlessUserAgent(), completion: log.completion("getAuthorization"))
        _ = await log.waitForEvents(before + 2)
    }

    /// The paths of the bearer-authorized requests after the first `count` in the provider's log
    /// that carry a token this provider accepts. Under `--parallel` another test process's client
    /// can reach a port this provider took over after that test's provider stopped; its requests
    /// carry tokens this provider never issued.
    func authorizedRequestPaths(after count: Int) -> [String] {
        provider.requestLog.dropFirst(count).filter { request in
            guard let token = request.authorization?.split(separator: " ").last.map(String.init) else { return false }
            return provider.isActive(accessToken: token) || provider.acceptsAtPermissionCenter(token)
        }.map(\.path)
    }

    /// Where a scenario's transcript starts: after ``initialize()`` (its listener callback and
    /// completion), and after ``signIn()`` too.
    static let initialized = 2
    static let signedIn = initialized + 2

    /// Waits until `expected.count` events follow the first `count` (10 s guard), then asserts
    /// they are `expected`: the expected transcript says how many events to wait for.
    func assertTranscript(after count: Int, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) async {
        _ = await log.waitForEvents(count + expected.count)
        XCTAssertEqual(transcript(after: count), expected, file: file, line: line)
    }

    /// The transcript lines after the first `count`.
    func transcript(after count: Int) -> [String] { Array(log.transcript.dropFirst(count)) }

    /// A session stored by a client on the same store, as a previous run of the app would have.
    func storeSession(expired: Bool = false) async throws -> SessionTokens {
        let client = SessionClient(configuration: configuration, store: store, transport: CurlTransport(timeout: 5), clock: clock)
        let tokens = try await client.signIn(scopes: AuthFlow.loginPermission.scopes, agent: HeadlessUserAgent())
        if expired { try await client.setTokens(tokens.withExpiry(clock.now().addingTimeInterval(-10))) }
        return tokens
    }
}

extension XCTestCase {
    /// A harness on a new LocalProvider; `accountsDirectory`: a service of several accounts, kept
    /// in files there.
    func makeFacade(store: InMemoryTokenStore = InMemoryTokenStore(), accountsDirectory: URL? = nil, transport: HTTPTransport? = nil,
                    edit: (inout LocalProvider.Options) -> Void = { _ in }) throws -> FacadeHarness {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock, configure: edit)
        addTeardownBlock { provider.stop() }
        var accounts: (@Sendable (SessionConfiguration) throws -> AccountStore)?
        if let accountsDirectory {
            accounts = { try FileAccountStore(configuration: $0, directory: accountsDirectory) }
        }
        let service = SessionService(store: { _ in store }, accountStore: accounts, transport: transport ?? CurlTransport(timeout: 5), clock: clock)
        let queue = DispatchQueue(label: FacadeHarness.queueLabel)
        CallbackLog.name(queue, FacadeHarness.queueLabel)
        service.callbackQueue = queue
        let log = CallbackLog()
        let listener = RecordingListener("A", log: log)
        service.registerListener(listener)
        return FacadeHarness(provider: provider, service: service, log: log, listener: listener, store: store, clock: clock,
                             configuration: try provider.configuration(), permissionCenter: try provider.permissionCenter)
    }

    /// Every event ran on the harness's callback queue (C1).
    func assertOnCallbackQueue(_ log: CallbackLog, file: StaticString = #filePath, line: UInt = #line) {
        for event in log.recorded where event.queue != FacadeHarness.queueLabel {
            XCTFail("\(event) ran on \(event.queue)", file: file, line: line)
        }
    }
}

import Dispatch
import Foundation
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// `endSession` against calls made from another thread at the same moment (C4, C7, C11): an
/// operation is either before it (it runs, or reports `sessionEnded` in its place) or after it
/// (no session), never run against the live session once waiting operations have been ended.
final class EndSessionRaceTests: XCTestCase {
    /// Outcomes in delivery order: "success", an error code, or "ended" for endSession's own.
    private final class Transcript: Sendable {
        private let outcomes = Locked<[String]>([])
        func record(_ outcome: String) { outcomes.withLock { $0.append(outcome) } }
        var recorded: [String] { outcomes.value }
    }

    func testCallsFromAnotherThreadNeverSlipBetweenEndedOperationsAndEndSession_C4_C7_C11() async throws {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        let transport = provider.inProcessTransport
        let service = SessionService(store: { _ in InMemoryTokenStore() }, transport: transport, agent: HeadlessUserAgent(transport: transport))
        service.callbackQueue = DispatchQueue(label: "end-session-race")
        let configuration = try provider.configuration()
        await withCheckedContinuation { done in service.initialize(configuration) { _ in done.resume() } }

        for round in 1...150 {
            await withCheckedContinuation { done in service.getAuthorization { _ in done.resume() } }
            let transcript = Transcript()
            let delivered = expectation(description: "round \(round): every outcome")
            // Seven fetches and endSession.
            let remaining = Countdown(8) { delivered.fulfill() }
            @Sendable func fetch() {
                service.fetchUserInfo { result in
                    switch result {
                    case .success: transcript.record("success")
                    case .failure(let error): transcript.record(error.code.rawValue)
                    }
                    remaining.countDown()
                }
            }
            let start = DispatchGroup()
            start.enter()
            DispatchQueue.global().async {
                start.wait()
                for _ in 0..<3 { fetch() }
                service.endSession { _ in
                    transcript.record("ended")
                    remaining.countDown()
                }
            }
            DispatchQueue.global().async {
                start.wait()
                for _ in 0..<4 { fetch() }
            }
            start.leave()
            await fulfillment(of: [delivered], timeout: 30)
            let outcomes = transcript.recorded
            guard let firstEnded = outcomes.firstIndex(where: { $0 == "sessionEnded" || $0 == "ended" }) else {
                return XCTFail("round \(round): endSession reported nothing: \(outcomes)")
            }
            XCTAssertFalse(outcomes[firstEnded...].contains("success"),
                           "round \(round): an operation ran against the session after waiting ones were ended: \(outcomes)")
            XCTAssertTrue(Set(outcomes).isSubset(of: ["success", "sessionEnded", "notAuthenticated", "ended"]), "round \(round): \(outcomes)")
        }
    }
}

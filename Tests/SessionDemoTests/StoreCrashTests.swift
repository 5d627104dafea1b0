import DemoTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A client killed with SIGKILL at any moment of a refresh with rotation, or of a sign-out with
/// revocation, leaves a session the next launch can use, or none: never a corrupt file, never a
/// retired refresh token sent again, never a revoked session taken for a live one.
final class StoreCrashTests: XCTestCase {
    func testKillingTheClientMidRefreshOrMidSignOutNeverCorruptsNorReplays() async throws {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("store-crash-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: store) }
        var verdicts: [String: Int] = [:]

        // Each of the eight kinds of kill twice; 200 rounds with SESSION_SOAK=1.
        for round in 0..<SoakRounds.count(quick: 16, soak: 200) {
            let signingOut = round % 4 == 3
            var child = try ChildProcess.start("StoreCrashChild", [provider.issuer.absoluteString, store.path, signingOut ? "end" : "refresh"])
            guard await child.lines.next() == "ready" else { return XCTFail("round \(round): the child did not start") }
            let pid = child.pid
            switch round % 8 {
            case 0, 4:
                // Right after the provider answered a refresh: the new tokens are not saved yet.
                provider.afterAnswering(.token) { kill(pid, SIGKILL) }
            case 1, 5:
                // A little later: while the answer is read, validated or saved.
                let pause = UInt32.random(in: 0...3_000)
                provider.afterAnswering(.token) { usleep(pause); kill(pid, SIGKILL) }
            case 3:
                // Right after the provider revoked the tokens: the store is not cleared yet.
                provider.afterAnswering(.revocation) { kill(pid, SIGKILL) }
            default:
                // At a random moment (the kill's timing is the point here, not a wait for work).
                usleep(UInt32.random(in: 0...(signingOut ? 10_000 : 30_000)))
                kill(pid, SIGKILL)
            }
            let status = await child.status()
            provider.afterAnswering(.token, nil)
            provider.afterAnswering(.revocation, nil)
            XCTAssertTrue(status == SIGKILL || (signingOut && status == 0), "round \(round): the child ended with \(status)")

            let next = try await DemoProcess.run([provider.issuer.absoluteString, store.path, "verify"], executable: "StoreCrashChild")
            let verdict = next.output.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(verdict == "ok" || verdict == "none", "round \(round): the next launch found \(verdict)")
            XCTAssertEqual(provider.refreshTokenReuses, 0, "round \(round): a retired refresh token was sent again")
            verdicts["\(signingOut ? "sign-out" : "refresh") killed, next launch: \(verdict)", default: 0] += 1
            if verdict != "ok" && verdict != "none" || provider.refreshTokenReuses != 0 { return }
        }
        print("StoreCrashTests: \(verdicts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    }
}

#if canImport(CLibCurl)
@testable import SessionCore
import Foundation
import SessionTesting
import XCTest

/// A finished transfer lets go of its easy handle: nothing of a request outlives it.
final class CurlTransferLifetimeTests: XCTestCase {
    private final class Weak: @unchecked Sendable {
        weak var transfer: CurlTransfer?
    }

    func testAFinishedTransferIsReleased() async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let driver = try CurlDriver.shared()
        let watched = Weak()
        let response = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
            do {
                let transfer = try CurlTransfer(HTTPRequest(method: "GET", url: provider.url(of: .discovery)), timeout: 5,
                                                maximumResponseSize: 1 << 20, cancellation: CancellationLink(), continuation: continuation)
                watched.transfer = transfer
                driver.start(transfer)
            } catch {
                continuation.resume(throwing: error)
            }
        }
        XCTAssertEqual(response.status, 200)
        // The driver drops it once it has resumed the continuation; give its thread that moment.
        let released = expectation(description: "released")
        Task.detached {
            while watched.transfer != nil { await Task.yield() }
            released.fulfill()
        }
        await fulfillment(of: [released], timeout: 5)
    }
}
#endif

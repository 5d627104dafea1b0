import Dispatch
import Foundation
import SessionCore
import SessionFacade
import SessionTesting

/// Many callers needing a fresh token at once must cause one refresh request, not one each.
enum RefreshStampede {
    /// `concurrentCallers` concurrent `userInfo()` calls on one core client whose access token
    /// has expired, over loopback.
    static func core(_ options: BenchOptions, into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let (client, tokens) = try await signedInLoopbackClient(provider)
        try await client.setTokens(tokens.withExpiry(Date(timeIntervalSinceNow: -1)))
        let before = refreshRequests(provider)
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<options.concurrentCallers {
                group.addTask { (try? await client.userInfo()) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        report.check("refresh-requests.core.\(options.concurrentCallers)-concurrent-callers", expected: "1",
                     actual: "\(refreshRequests(provider) - before)")
        report.check("succeeded.core.\(options.concurrentCallers)-concurrent-callers", expected: "\(options.concurrentCallers)",
                     actual: "\(succeeded)")
    }

    /// `concurrentCallers` `fetchUserInfo` calls made from many threads at once on a service
    /// whose access token has expired, over loopback.
    static func facade(_ options: BenchOptions, into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let service = try await signedInService(provider, transport: PlatformDefaults.httpTransport())
        try await completion { service.expireAccessToken(completion: $0) }
        let before = refreshRequests(provider)
        let callers = options.concurrentCallers
        let succeeded = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            let tally = Tally(expected: callers) { continuation.resume(returning: $0) }
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: callers) { _ in
                    service.fetchUserInfo { tally.record(success: (try? $0.get()) != nil) }
                }
            }
        }
        report.check("refresh-requests.facade.\(callers)-concurrent-callers", expected: "1", actual: "\(refreshRequests(provider) - before)")
        report.check("succeeded.facade.\(callers)-concurrent-callers", expected: "\(callers)", actual: "\(succeeded)")
    }
}

import Dispatch
import Foundation

/// Runs a store's blocking work — a file written and synced, a keychain call, a database client
/// library's round trip — on threads of its own, never on Swift's cooperative pool, whose few
/// threads every task of the process shares: one blocked there stalls unrelated work. Every
/// store of the package goes through it; a store of the app's should too.
public enum BlockingStoreWork {
    private static let queue = DispatchQueue(label: "SessionService.store", qos: .userInitiated, attributes: .concurrent)

    /// `body`'s result, computed on a thread of the store queue.
    /// - Throws: what `body` throws.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// `body`'s result, computed on a thread of the store queue (for work that reports its own
    /// failures in what it returns).
    public static func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}

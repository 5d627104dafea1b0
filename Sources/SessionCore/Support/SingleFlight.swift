/// Runs one piece of async work at a time for any number of callers: whoever arrives while it
/// runs shares its result instead of starting it again. Used for refresh (one refresh request for
/// many callers) and discovery.
package actor SingleFlight<Value: Sendable> {
    private var current: Task<Value, Error>?

    package init() {}

    /// Starts `work` unless a run is in progress, and returns that run's result.
    package func run(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let current { return try await current.value }
        let task = Task { try await work() }
        current = task
        defer { current = nil }
        return try await task.value
    }

    /// Waits for the run in progress, if any, ignoring its outcome.
    func wait() async {
        _ = try? await current?.value
    }
}

/// Runs one piece of async work at a time for any number of callers: whoever arrives while it
/// runs shares its result instead of starting it again. Used for refresh (one refresh request for
/// many callers) and discovery.
///
/// Work has a key: a caller joins a run of its own key, and waits out a run of another key before
/// starting its own, so two runs never overlap (a refresh for one resource and one for the
/// session spend the same refresh token).
package actor SingleFlight<Value: Sendable> {
    private var current: (task: Task<Value, Error>, key: String)?

    package init() {}

    /// Starts `work` unless a run of `key` is in progress, and returns that run's result.
    package func run(key: String = "", _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        while let running = current {
            if running.key == key { return try await running.task.value }
            _ = try? await running.task.value
            if current?.task == running.task { current = nil }
        }
        let task = Task { try await work() }
        current = (task, key)
        defer { if current?.task == task { current = nil } }
        return try await task.value
    }

    /// Waits for the run in progress, if any, ignoring its outcome.
    func wait() async {
        _ = try? await current?.task.value
    }
}

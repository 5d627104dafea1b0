/// Runs `body` on the caller's isolation, attributing any ``SessionError`` it throws to `process`:
/// the call the app made, whose outcome it is, even when a step on the way (discovery, a refresh)
/// failed; the message names that step.
func attributingErrors<T>(to process: SessionError.Process, isolation: isolated (any Actor)? = #isolation,
                          _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as SessionError {
        throw error.in(process)
    }
}

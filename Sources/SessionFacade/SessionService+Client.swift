import SessionCore
import SessionPermissions

/// How an operation reaches the client `initialize` made, and how its errors become the
/// outcome's ``SessionError``.
extension SessionService {
    /// Runs `body` with the client, or fails with `notInitialized` (naming why `initialize`
    /// failed, if it did); any error becomes a ``SessionError`` of `process`.
    func withClient<T>(_ process: SessionError.Process, _ body: (SessionClient) async throws -> T) async -> Result<T, SessionError> {
        let (client, failure) = state.withLock { ($0.client, $0.initializationFailure) }
        guard let client else {
            let why = failure.map { "initialize failed (\($0.code.rawValue): \($0.message))" } ?? "call initialize first"
            return .failure(SessionError(.notInitialized, process: process, message: why))
        }
        do {
            return .success(try await body(client))
        } catch {
            return .failure(Self.sessionError(error, process: process))
        }
    }

    /// As ``withClient(_:_:)``, on the permission center `initialize` was given.
    func withPermissionCenter<T>(_ process: SessionError.Process, _ body: (PermissionCenter) async throws -> T) async -> Result<T, SessionError> {
        let endpoints = state.withLock { $0.permissionCenter }
        return await withClient(process) { client in
            guard let endpoints else {
                throw SessionError(.invalidConfiguration, process: process, message: "no permission-center endpoints are configured")
            }
            return try await body(PermissionCenter(client: client, endpoints: endpoints))
        }
    }

    /// The outcome of an operation `endSession` overtook.
    static func sessionEnded(_ process: SessionError.Process) -> SessionError {
        SessionError(.sessionEnded, process: process, message: "endSession was called before this operation finished")
    }

    /// `error` as a ``SessionError`` of `process`.
    static func sessionError(_ error: Error, process: SessionError.Process) -> SessionError {
        switch error {
        case let error as SessionError: error
        case is CancellationError: SessionError.cancelled(process, "the operation")
        default: SessionError(.unexpectedResponse, process: process, message: "failed with \(type(of: error))")
        }
    }
}

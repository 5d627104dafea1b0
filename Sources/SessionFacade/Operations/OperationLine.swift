import Foundation
import SessionCore
import SessionPermissions

/// The operation line: operations run one at a time in call order (C4), each delivering its
/// outcomes as one unit (C3), whatever thread called.
extension SessionService {
    /// Appends an operation and starts it when the line is idle.
    func enqueue(_ kind: OperationKind, authorization: AuthorizationSession? = nil, fail: @escaping @Sendable (SessionError) -> Delivery,
                 run: @escaping @Sendable () async -> [Delivery]) {
        line.withLock { state in
            state.queued.append(QueuedOperation(kind: kind, authorization: authorization, run: run, fail: fail))
            startNextLocked(&state)
        }
    }

    /// Queues an operation with one outcome: `outcome` turns its result into the delivery, the
    /// same whether `run` produced the result or the operation never ran (`sessionEnded`, C7).
    func enqueue<T: Sendable>(_ kind: OperationKind, authorization: AuthorizationSession? = nil,
                              outcome: @escaping @Sendable (Result<T, SessionError>) -> Delivery,
                              run: @escaping @Sendable () async -> Result<T, SessionError>) {
        let operation = QueuedOperation(kind: kind, authorization: authorization, outcome: outcome, run: run)
        line.withLock { state in
            state.queued.append(operation)
            startNextLocked(&state)
        }
    }

    /// Starts the next operation on a task of its own when none runs. Called while holding `line`.
    func startNextLocked(_ state: inout LineState) {
        guard let operation = Self.takeNext(&state) else { return }
        Task { [self] in await perform(operation) }
    }

    /// Makes the next waiting operation the running one, when none runs.
    private static func takeNext(_ state: inout LineState) -> QueuedOperation? {
        guard state.running == nil, let operation = state.queued.popFirst() else { return nil }
        state.running = RunningOperation(kind: operation.kind, authorization: operation.authorization)
        return operation
    }

    /// Runs `operation`, the running one, hands its outcomes to the delivery line, and goes on
    /// with the operations waiting behind it on the same task, which saves a task and a thread
    /// hop per operation when calls come in faster than they complete.
    private func perform(_ operation: QueuedOperation) async {
        var current = operation
        while true {
            let outcomes = await current.run()
            let next = line.withLock { state -> QueuedOperation? in
                deliveries.enqueue(outcomes.map { $0.block(listeners: listeners) })
                state.running = nil
                return Self.takeNext(&state)
            }
            guard let next else { return }
            current = next
        }
    }

    /// Runs `body` with the client, or fails with `notInitialized` (naming why `initialize`
    /// failed, if it did); any error becomes a ``SessionError`` of `process`.
    func withClient<T>(_ process: SessionError.Process, _ body: (SessionClient) async throws -> T) async -> Result<T, SessionError> {
        let (client, failure) = line.withLock { ($0.client, $0.initializationFailure) }
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
        let endpoints = line.withLock { $0.permissionCenter }
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

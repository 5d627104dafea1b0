import SessionCore

/// What an operation's result is to the listeners and the caller: the kind of operation it
/// ends, and the listener callback a success and a failure are heard as (C2). An operation's
/// file declares its outcome beside its entries; the line does the rest.
struct Outcome<Value: Sendable>: Sendable {
    /// The kind of operation that ends with this outcome.
    let kind: OperationKind
    /// The listener callback for `result`.
    let notice: @Sendable (Result<Value, SessionError>) -> @Sendable (SessionServiceDelegate) -> Void

    /// An outcome heard as `success` or as `failure`.
    init(_ kind: OperationKind, success: @escaping @Sendable (SessionServiceDelegate, Value) -> Void,
         failure: @escaping @Sendable (SessionServiceDelegate, SessionError) -> Void) {
        self.kind = kind
        notice = { result in
            switch result {
            case .success(let value): { success($0, value) }
            case .failure(let error): { failure($0, error) }
            }
        }
    }

    /// An outcome whose listener callback `notice` chooses from the whole result.
    init(_ kind: OperationKind, notice: @escaping @Sendable (Result<Value, SessionError>) -> @Sendable (SessionServiceDelegate) -> Void) {
        self.kind = kind
        self.notice = notice
    }

    /// An outcome only the caller's completion handler hears of.
    static func completionOnly(_ kind: OperationKind) -> Outcome {
        Outcome(kind) { _ in { _ in } }
    }

    /// `result` delivered: the listener callback, then `completion` with it.
    func delivery(_ result: Result<Value, SessionError>, _ completion: (@Sendable (Result<Value, SessionError>) -> Void)?) -> Delivery {
        guard let completion else { return Delivery(notify: notice(result), complete: nil) }
        return Delivery(notify: notice(result), complete: { completion(result) })
    }

    /// The same outcome told to listeners as what `transform` makes of the value: a sign-in whose
    /// completion gets the tokens is heard as the access token.
    func pulledBack<Original: Sendable>(_ transform: @escaping @Sendable (Original) -> Value) -> Outcome<Original> {
        Outcome<Original>(kind) { [notice] result in notice(result.map(transform)) }
    }
}

extension SessionService {
    /// Puts an operation on the line: `run`'s result, or the failure it ends with when it never
    /// runs (C7), is delivered as `outcome`, to the listeners and then to `completion`.
    func perform<Value: Sendable>(_ outcome: Outcome<Value>, _ completion: (@Sendable (Result<Value, SessionError>) -> Void)?,
                                  authorization: AuthorizationSession? = nil,
                                  _ run: @escaping @Sendable () async -> Result<Value, SessionError>) {
        line.enqueue(operation(outcome, completion, authorization: authorization, run))
    }

    /// As ``perform(_:_:authorization:_:)``, with `work` run on the client `initialize` made.
    func performOnClient<Value: Sendable>(_ outcome: Outcome<Value>, _ completion: (@Sendable (Result<Value, SessionError>) -> Void)?,
                                          _ work: @escaping @Sendable (SessionClient) async throws -> Value) {
        perform(outcome, completion) { [self] in await withClient(outcome.kind.process, work) }
    }

    /// The queued form of an operation with one outcome.
    func operation<Value: Sendable>(_ outcome: Outcome<Value>, _ completion: (@Sendable (Result<Value, SessionError>) -> Void)?,
                                    authorization: AuthorizationSession? = nil,
                                    _ run: @escaping @Sendable () async -> Result<Value, SessionError>) -> QueuedOperation {
        QueuedOperation(kind: outcome.kind, authorization: authorization, run: { [outcome.delivery(await run(), completion)] },
                        fail: { outcome.delivery(.failure($0), completion) })
    }

    /// An operation's `async throws` form: starts it with a completion that resumes the caller,
    /// so it keeps its place in call order (C4) and returns once listeners have heard its outcome.
    func awaiting<Value: Sendable>(_ start: (@escaping @Sendable (Result<Value, SessionError>) -> Void) -> Void) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: $0) }
        }
    }
}

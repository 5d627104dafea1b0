/// A legacy completion handler, which is not `Sendable`, carried into a `@Sendable` closure that
/// runs on the partner's callback queue, where GrabID called it too.
///
/// `@unchecked Sendable`: the value is only used on the callback queue.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

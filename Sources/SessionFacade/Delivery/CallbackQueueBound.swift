/// A value that is not `Sendable` — a legacy completion handler, a legacy listener — carried to
/// the callback queue, the one place it is used. The compat modules wrap the closures and objects
/// of legacy APIs in it; nothing else should.
///
/// `@unchecked Sendable`: the value is only read, and only called or used on the service's callback
/// queue, whose deliveries run one at a time (C1, C4); other threads only move the wrapper.
package struct CallbackQueueBound<Value>: @unchecked Sendable {
    /// The value; use it on the callback queue only.
    package let value: Value

    /// Wraps `value`.
    package init(_ value: Value) { self.value = value }
}

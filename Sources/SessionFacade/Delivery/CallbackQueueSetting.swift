import Dispatch
import Foundation

/// The callback queue, readable by the delivery line at each dispatch.
///
/// `@unchecked Sendable`: `stored` is read and written only while holding `lock`.
final class CallbackQueueSetting: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = DispatchQueue.main

    var queue: DispatchQueue {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

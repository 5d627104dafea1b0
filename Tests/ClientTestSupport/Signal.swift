import Foundation

/// A one-shot signal a test can await, for holding a fake response until the test says go.
package actor Signal {
    private var raised = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init() {}

    package func raise() {
        raised = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }

    package func wait() async {
        if raised { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

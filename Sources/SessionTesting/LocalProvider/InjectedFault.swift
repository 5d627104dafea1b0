import Foundation
import SessionCore

/// A fault waiting to be applied; `remaining` nil means until removed.
struct InjectedFault: Sendable {
    var fault: LocalProvider.Fault
    var remaining: Int?
}

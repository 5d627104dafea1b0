import Foundation

/// A count of seconds as a log line or an error message shows it: whole seconds, or the number
/// as it is when it is too large for an `Int` or not a number, which a conversion would trap on.
package func wholeSeconds(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite, abs(seconds) < 1e15 else { return "\(seconds)" }
    return "\(Int(seconds.rounded(.down)))"
}

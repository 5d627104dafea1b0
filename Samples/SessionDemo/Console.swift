import Foundation

/// Where the demo writes: standard output for the transcript, one line on standard error for a
/// failure. Colour only on a terminal and without `NO_COLOR`.
///
/// `@unchecked Sendable`: `FileHandle` writes of whole lines are safe from any thread, and the
/// properties never change.
final class Console: @unchecked Sendable {
    private let colour: Bool

    init() {
        let environment = ProcessInfo.processInfo.environment
        colour = environment["NO_COLOR"].map(\.isEmpty) ?? true && isatty(STDOUT_FILENO) == 1
    }

    enum Style: String { case step = "1", good = "32", bad = "31", quiet = "2" }

    func line(_ text: String, _ style: Style? = nil) {
        var styled = text
        if colour, let style { styled = "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" }
        FileHandle.standardOutput.write(Data((styled + "\n").utf8))
    }

    /// A failure, as one readable line on standard error.
    func failure(_ text: String) {
        FileHandle.standardError.write(Data("session-demo: \(text)\n".utf8))
    }
}

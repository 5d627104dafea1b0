import Foundation

/// Where the demo writes: standard output for the transcript, one line on standard error for a
/// failure. Colour only on a terminal and without `NO_COLOR`. No control character reaches the
/// terminal but the newlines the demo itself writes and its own colour codes: text from a provider
/// or a redirect could otherwise retitle, clear or rewrite the terminal.
///
/// Each line is one `FileHandle` write, which is safe from any thread.
final class Console: Sendable {
    private let colour: Bool

    init() {
        let environment = ProcessInfo.processInfo.environment
        colour = environment["NO_COLOR"].map(\.isEmpty) ?? true && isatty(STDOUT_FILENO) == 1
    }

    enum Style: String { case step = "1", good = "32", bad = "31", quiet = "2" }

    func line(_ text: String, _ style: Style? = nil) {
        var styled = Self.printable(text, keepingNewlines: true)
        if colour, let style { styled = "\u{1B}[\(style.rawValue)m\(styled)\u{1B}[0m" }
        FileHandle.standardOutput.write(Data((styled + "\n").utf8))
    }

    /// A failure, as one readable line on standard error.
    func failure(_ text: String) {
        FileHandle.standardError.write(Data("session-demo: \(Self.printable(text))\n".utf8))
    }

    /// `text` without its control characters (C0, DEL and C1), newlines too unless
    /// `keepingNewlines`: how a string from outside is shown.
    static func printable(_ text: String, keepingNewlines: Bool = false) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            if !isControl || (keepingNewlines && scalar == "\n") { kept.append(scalar) }
        }
        return String(kept)
    }
}

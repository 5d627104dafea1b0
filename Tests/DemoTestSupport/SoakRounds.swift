import Foundation

/// How many rounds a kill -9 or multi-process soak test runs: a few by default, enough that it
/// fails when the protection it tests is removed, and its full count with `SESSION_SOAK=1` (a
/// stage of `.ci/run`).
public enum SoakRounds {
    /// True when `SESSION_SOAK=1` asks for the full soak.
    public static var isSoaking: Bool { ProcessInfo.processInfo.environment["SESSION_SOAK"] == "1" }

    /// `quick` rounds, or `soak` with `SESSION_SOAK=1`.
    public static func count(quick: Int, soak: Int) -> Int { isSoaking ? soak : quick }
}

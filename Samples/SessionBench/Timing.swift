import Dispatch

/// One way of doing the work being timed: `run(n)` does `n` operations and throws when one fails.
struct Side {
    let name: String
    let run: (Int) async throws -> Void
}

/// Times of several ways to do the same work, measured in interleaved rounds.
struct Timings {
    /// Microseconds per operation, by side, one value per round.
    private(set) var rounds: [[Double]]

    init(sides: Int) {
        rounds = Array(repeating: [], count: sides)
    }

    mutating func record(_ value: Double, side: Int) {
        rounds[side].append(value)
    }

    /// The median over rounds of one side's time per operation.
    func median(_ side: Int) -> Double { SessionBench.median(rounds[side]) }

    /// The median over rounds of `side` ÷ `base`, both measured in the same round.
    func ratio(_ side: Int, to base: Int) -> Double {
        SessionBench.median(zip(rounds[side], rounds[base]).map { $0 / $1 })
    }
}

/// Runs every side `operations` times per round, for `rounds` rounds after one unrecorded warm-up
/// round; each round starts with a different side, so noise spreads over all of them.
func measure(rounds: Int, operations: Int, _ sides: [Side]) async throws -> Timings {
    var timings = Timings(sides: sides.count)
    for round in 0...rounds {
        for offset in sides.indices {
            let index = (round + offset) % sides.count
            let start = DispatchTime.now().uptimeNanoseconds
            try await sides[index].run(operations)
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            if round > 0 { timings.record(Double(elapsed) / 1_000 / Double(operations), side: index) }
        }
    }
    return timings
}

extension SessionBench {
    /// The median of `values` (0 for none).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

import Foundation

/// Everything one run measured: figures (some with a goal) and invariants.
struct Report {
    /// One measured value.
    struct Figure: Encodable {
        let name: String
        let value: Double
        let unit: String
        /// The largest value that meets the goal; nil for a figure without one.
        let goal: Double?
        /// Whether the value meets the goal; nil without one.
        let met: Bool?
        /// How the value was obtained.
        let detail: String

        init(name: String, value: Double, unit: String, goal: Double?, detail: String) {
            self.name = name
            self.value = value
            self.unit = unit
            self.goal = goal
            self.met = goal.map { value <= $0 }
            self.detail = detail
        }
    }

    /// Something that must hold whatever the machine's speed.
    struct Invariant: Encodable {
        let name: String
        let expected: String
        let actual: String
        let holds: Bool
    }

    /// The report as `--json` prints it.
    struct Document: Encodable {
        let quick: Bool
        let figures: [Figure]
        let invariants: [Invariant]
        let allInvariantsHold: Bool
    }

    let quick: Bool
    private(set) var figures: [Figure] = []
    private(set) var invariants: [Invariant] = []

    init(quick: Bool) {
        self.quick = quick
    }

    mutating func add(_ name: String, _ value: Double, _ unit: String, goal: Double? = nil, _ detail: String) {
        figures.append(Figure(name: name, value: value, unit: unit, goal: goal, detail: detail))
    }

    /// Adds each side's median time per operation.
    mutating func add(_ timings: Timings, _ sides: [Side], rounds: Int, operations: Int) {
        for (index, side) in sides.enumerated() {
            add(side.name, timings.median(index), "µs/op", "median of \(rounds) interleaved rounds of \(operations) operations")
        }
    }

    /// Adds the ratio of two sides' times, which should not exceed `goal`.
    mutating func add(ratio name: String, _ timings: Timings, _ side: Int, to base: Int, goal: Double?) {
        add(name, timings.ratio(side, to: base), "×", goal: goal, "median of the rounds' ratios")
    }

    mutating func check(_ name: String, expected: String, actual: String) {
        invariants.append(Invariant(name: name, expected: expected, actual: actual, holds: expected == actual))
    }

    var allInvariantsHold: Bool { invariants.allSatisfy(\.holds) }

    /// The figures as text: one labelled figure per line, then a summary.
    var text: String {
        let width = (figures.map(\.name) + invariants.map(\.name)).map(\.count).max() ?? 0
        func label(_ name: String) -> String { name.padding(toLength: width + 2, withPad: " ", startingAt: 0) }
        var lines = figures.map { figure -> String in
            let value = String(format: figure.value < 10 ? "%.3f" : "%.1f", figure.value)
            var line = label(figure.name) + "\(value) \(figure.unit)"
            if let goal = figure.goal {
                line += String(format: "   goal ≤ %g %@: %@", goal, figure.unit, figure.met == true ? "met" : "MISSED")
            }
            return line + "   (\(figure.detail))"
        }
        lines += invariants.map { label($0.name) + "\($0.actual)   expected \($0.expected): \($0.holds ? "holds" : "BROKEN")" }
        let goals = figures.compactMap(\.met)
        lines.append("summary: \(goals.filter { $0 }.count) of \(goals.count) goals met, "
                     + "\(invariants.filter(\.holds).count) of \(invariants.count) invariants hold"
                     + (quick ? " (--quick: times are rough)" : ""))
        return lines.joined(separator: "\n")
    }

    var document: Document {
        Document(quick: quick, figures: figures, invariants: invariants, allInvariantsHold: allInvariantsHold)
    }
}

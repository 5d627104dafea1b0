import Foundation

/// The command line of `session-bench`, and the sizes of a run.
struct BenchOptions {
    /// Print one JSON document instead of text.
    var json = false
    /// Small sizes, for CI: the invariants are checked, the times mean little.
    var quick = false
    var help = false
    /// A file holding a PostgreSQL connection string: adds the `fleet.*` figures.
    var postgres: String?
    /// Only the `fleet.*` figures (with `--postgres`).
    var onlyFleet = false

    /// A usage error: printed as one line, exit code 2.
    struct UsageError: Error { let message: String }

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": json = true
            case "--quick": quick = true
            case "--help", "-h": help = true
            case "--postgres":
                guard let file = remaining.popFirst() else { throw UsageError(message: "--postgres needs the file of a connection string") }
                postgres = file
            case "--only-fleet": onlyFleet = true
            default: throw UsageError(message: "unknown argument \(argument) (see --help)")
            }
        }
        if onlyFleet && postgres == nil { throw UsageError(message: "--only-fleet needs --postgres FILE") }
    }

    /// Measured rounds per comparison; each round runs both sides, in alternating order.
    var rounds: Int { quick ? 3 : 15 }
    /// Operations per side and round over loopback.
    var loopbackOperations: Int { quick ? 20 : 200 }
    /// Operations per side and round with the in-process transport.
    var inProcessOperations: Int { quick ? 200 : 2_000 }
    /// Sign-ins per side and round.
    var signIns: Int { quick ? 5 : 50 }
    /// Callers that need a fresh token at once.
    var concurrentCallers: Int { 1_000 }
    /// Facade operations before resident memory is first read, so caches and the provider's
    /// request log are at their steady size.
    var memoryWarmUp: Int { quick ? 2_000 : 30_000 }
    /// Facade operations over which memory growth is measured.
    var memoryOperations: Int { quick ? 5_000 : 100_000 }

    static let help = """
        session-bench: SessionService's benchmark. Every figure comes from this run, measured
        against the embedded LocalProvider over loopback or in process; the two sides of each
        ratio are measured in alternating rounds, so machine noise hits both.

        USAGE
          swift run -c release session-bench [--quick] [--json] [--postgres FILE [--only-fleet]]

        OPTIONS
          --quick     small sizes, for CI; times are then rough
          --json      one JSON document instead of text
          --postgres FILE
                      add the fleet.* figures: sessions in the PostgreSQL database whose
                      connection string FILE holds (read from a file: it may hold a password),
                      refreshed by four node processes (Tests/Postgres/run.sh starts a throw-away
                      cluster and runs this)
          --only-fleet  only the fleet.* figures
          -h, --help  this text

        EXIT CODES
          0  every invariant holds (a missed time goal is reported, not an error)
          1  an invariant is broken, e.g. more than one refresh request for concurrent callers,
             or for 8 copies of this program sharing one session file, or for 4 nodes
             sharing sessions through PostgreSQL
          2  bad arguments
          3  the benchmark could not run (e.g. the provider could not start)
        """
}

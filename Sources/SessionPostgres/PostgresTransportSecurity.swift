#if canImport(CLibPQ)
import Foundation
import SessionCore

/// How a connection to the database is secured: TLS that verifies the server's certificate and
/// name (`sslmode=verify-full`) for every database that is not on this machine, whatever the
/// connection string leaves unsaid. libpq's own default (`prefer`) lets a man in the middle on the
/// way to the database downgrade the connection to plaintext, and `require` accepts any
/// certificate: either hands the refresh tokens to whoever sits in between.
///
/// A database on this machine — every host a Unix socket, `localhost` or a loopback address, and
/// every `hostaddr` a loopback address — keeps what the string and libpq say. Elsewhere a weaker
/// `sslmode` is refused unless ``PostgresDatabase/Options/insecurelyAllowsUnverifiedConnections``.
enum PostgresTransportSecurity {
    /// The `sslmode` to add to the connection's parameters (nil: none to add), for `settings`.
    /// - Parameter environment: libpq's environment variables (`PGHOST`, `PGHOSTADDR`, `PGSSLMODE`),
    ///   which stand in for settings the string leaves out.
    /// - Throws: `invalidConfiguration` when the string asks for less than `verify-full` for a
    ///   database that is not on this machine and the options do not allow it.
    static func sslMode(for settings: [String: String], environment: [String: String], allowsUnverified: Bool) throws -> String? {
        let hosts = (settings["host"] ?? environment["PGHOST"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let addresses = (settings["hostaddr"] ?? environment["PGHOSTADDR"] ?? "").split(separator: ",").map(String.init)
        let onThisMachine = hosts.allSatisfy(isLocal) && addresses.allSatisfy { URLRules.isLoopbackIPLiteral(host: $0) }
        let asked = settings["sslmode"] ?? (settings["requiressl"] == "1" ? "require" : nil) ?? environment["PGSSLMODE"]
        if onThisMachine { return nil }
        guard let asked else { return "verify-full" }
        if asked == "verify-full" || allowsUnverified { return nil }
        throw SessionError(.invalidConfiguration, process: .configuration, message: """
            the PostgreSQL connection string asks for sslmode=\(asked) for a database that is not on this machine: \
            the server would not be verified, and whoever sits on the way could read the sessions. Use sslmode=verify-full \
            (the default here) with the server's certificate authority in sslrootcert=/path/to/ca.crt, or, knowing the risk, \
            set PostgresDatabase.Options.insecurelyAllowsUnverifiedConnections
            """)
    }

    /// A Unix socket directory (or an abstract socket), `localhost`, or a loopback address.
    private static func isLocal(_ host: String) -> Bool {
        host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") || URLRules.isLoopback(host: host)
    }

    /// What to add to a failure to connect that verification caused: how to fix it.
    static func hint(for message: String) -> String? {
        let lowered = message.lowercased()
        guard lowered.contains("certificate") || lowered.contains("ssl") else { return nil }
        return "the database server's TLS certificate could not be verified: give the authority that signed it with "
            + "sslrootcert=/path/to/ca.crt in the connection string (libpq 16 and later also take sslrootcert=system), "
            + "and make sure the host name is one the certificate names"
    }
}
#endif

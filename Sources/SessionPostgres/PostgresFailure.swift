#if canImport(CLibPQ)
import Foundation
import SessionCore

/// Why a PostgreSQL call failed, before it becomes the ``SessionCore/SessionError`` a store
/// throws. Its message is libpq's or the server's, with the connection string's secrets removed:
/// libpq quotes pieces of a connection string it cannot parse, so those messages are replaced
/// whole, and ``PostgresDatabase`` cuts the password's part out of any quoted piece of the string.
struct PostgresFailure: Error, Sendable {
    enum Kind: Sendable {
        /// libpq is not installed or too old.
        case unavailable
        /// No connection could be made (a refused port, an unknown host, a timeout): the server is
        /// away, perhaps restarting.
        case unreachable
        /// The server, or the connection string, refused the connection (credentials, TLS, a
        /// database or role that does not exist): trying again changes nothing.
        case refused
        /// The connection broke during a statement (the server restarted, the network went).
        case lost
        /// The server refused a statement; ``state`` says why.
        case statement
        /// Every connection of the pool stayed in use for as long as a call may wait.
        case busy
        /// The task waiting for a connection was cancelled.
        case cancelled
    }

    var kind: Kind
    var message: String
    /// The SQLSTATE of a refused statement (`57014`: cancelled by `statement_timeout`).
    var state: String?

    init(_ kind: Kind, _ message: String, state: String? = nil) {
        self.kind = kind
        self.message = message
        self.state = state
    }

    static func connecting(_ libpqMessage: String) -> PostgresFailure {
        let text = Self.firstLine(libpqMessage)
        // libpq quotes the part of a connection string it could not parse, which may be a password.
        let unparsable = ["connection info string", "invalid connection option", "invalid URI", "invalid percent-encoded",
                          "unexpected spaces", "invalid integer value", "invalid sslmode", "invalid value for parameter"]
        if unparsable.contains(where: { text.contains($0) }) {
            return PostgresFailure(.refused, "the connection string is not valid (it is not shown: it may hold a password)")
        }
        // The server answered and said no (credentials, TLS, a database or role that is not there):
        // trying again changes nothing.
        let refusals = ["authentication failed", "certificate", "SSL", "ssl", "does not exist", "no pg_hba.conf entry", "permission denied"]
        return PostgresFailure(refusals.contains(where: { text.contains($0) }) ? .refused : .unreachable, text)
    }

    static func lost(_ libpqMessage: String) -> PostgresFailure {
        PostgresFailure(.lost, firstLine(libpqMessage).isEmpty ? "the server closed the connection" : firstLine(libpqMessage))
    }

    static func statement(state: String, message: String) -> PostgresFailure {
        PostgresFailure(.statement, firstLine(message), state: state)
    }

    /// Whether the statement was cancelled by the server's `statement_timeout`.
    var isTimeout: Bool { state == "57014" }

    /// A failure of the way to the database rather than a refusal of the statement: the server
    /// away or restarting, a connection lost, a statement cancelled by the timeout, a full pool.
    var isTransient: Bool {
        switch kind {
        case .unreachable, .lost: true
        case .statement: isTimeout || state == "57P01" || state == "57P03" || state == "40001" || state == "40P01"
        case .unavailable, .refused, .busy, .cancelled: false
        }
    }

    /// libpq's messages end with a newline and may add a DETAIL line: the first line says it.
    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// The store's error: `storageFailed`, saying what was being done and why, never the connection
    /// string (the message was redacted by the database that has it).
    func sessionError(_ what: String) -> SessionError {
        if kind == .cancelled { return SessionError(.cancelled, process: .configuration, message: "cannot \(what): \(message)") }
        let why: String = switch kind {
        case .unavailable: message
        case .unreachable, .refused: "the database cannot be reached: \(message)"
        case .lost: "the connection to the database was lost: \(message); the next call reconnects"
        case .statement where isTimeout: "the database did not answer within the statement timeout (SQLSTATE 57014)"
        case .statement: "the database refused the statement (SQLSTATE \(state ?? "?")): \(message)"
        case .busy, .cancelled: message
        }
        return SessionError(.storageFailed, process: .configuration, message: "cannot \(what): \(why)")
    }
}
#endif

#if canImport(CLibPQ)
import CLibPQ
import Foundation
import SessionCore

/// One libpq connection. Its calls block, so they run on a thread of the caller's choosing (the
/// ``PostgresDatabase`` pool's), one at a time.
///
/// `@unchecked Sendable`: a connection is used by one call at a time — the pool's lock
/// (``PostgresDatabase``'s `pool`) hands it to one borrower, which gives it back when done.
final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        clibpq().pointee.PQfinish(handle)
    }

    /// Connects with `parameters` (libpq keywords and values, in order: a later one overrides an
    /// earlier one, and `dbname` holding the app's connection string is expanded in its place),
    /// then runs `setup`.
    /// - Throws: ``PostgresFailure`` — libpq missing, the server unreachable or refusing.
    static func open(_ parameters: [(String, String)], setup: [String]) throws(PostgresFailure) -> PostgresConnection {
        let api = try library()
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let handle: OpaquePointer? = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
                api.PQconnectdbParams(keywordList.baseAddress, valueList.baseAddress, 1)
            }
        }
        guard let handle else { throw PostgresFailure(.unreachable, "libpq could not allocate a connection") }
        let connection = PostgresConnection(handle: handle)
        guard api.PQstatus(handle) == CLIBPQ_CONNECTION_OK.rawValue else {
            throw PostgresFailure.connecting(text(api.PQerrorMessage(handle)))
        }
        for statement in setup { _ = try connection.execute(statement) }
        return connection
    }

    /// libpq's functions, or the failure saying why it cannot be used.
    static func library() throws(PostgresFailure) -> clibpq_api {
        let api = clibpq().pointee
        switch Int32(api.status) {
        case Int32(CLIBPQ_LOADED.rawValue):
            return api
        case Int32(CLIBPQ_NO_SYMBOL.rawValue):
            throw PostgresFailure(.unavailable, "libpq lacks \(api.missing_symbol.map { String(cString: $0) } ?? "a function") (PostgreSQL 10 or later is needed)")
        default:
            throw PostgresFailure(.unavailable, "libpq.so.5 could not be loaded (Debian and Ubuntu: libpq5)")
        }
    }

    /// Whether the connection can still be used: not broken, and not left inside a transaction.
    var isUsable: Bool {
        let api = clibpq().pointee
        return api.PQstatus(handle) == CLIBPQ_CONNECTION_OK.rawValue && api.PQtransactionStatus(handle) == CLIBPQ_PQTRANS_IDLE.rawValue
    }

    /// Runs `sql` with `parameters` ($1, $2, ... as text; nil is NULL) and returns its rows as text.
    /// - Throws: ``PostgresFailure`` with the server's SQLSTATE, or a lost connection.
    func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresFailure) -> PostgresRows {
        let api = clibpq().pointee
        let copies = parameters.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let result: OpaquePointer? = copies.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { values in
            api.PQexecParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
        }
        guard let result else {
            throw PostgresFailure.lost(text(api.PQerrorMessage(handle)))
        }
        defer { api.PQclear(result) }
        let status = api.PQresultStatus(result)
        guard status == CLIBPQ_PGRES_TUPLES_OK.rawValue || status == CLIBPQ_PGRES_COMMAND_OK.rawValue else {
            let state = api.PQresultErrorField(result, Int32(CLIBPQ_PG_DIAG_SQLSTATE.rawValue)).map { String(cString: $0) }
            let message = api.PQresultErrorField(result, Int32(CLIBPQ_PG_DIAG_MESSAGE_PRIMARY.rawValue)).map { String(cString: $0) }
                ?? text(api.PQerrorMessage(handle))
            if api.PQstatus(handle) != CLIBPQ_CONNECTION_OK.rawValue || state == nil { throw PostgresFailure.lost(message) }
            throw PostgresFailure.statement(state: state ?? "", message: message)
        }
        var rows: [[String?]] = []
        let (count, columns) = (api.PQntuples(result), api.PQnfields(result))
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append((0..<columns).map { column in
                api.PQgetisnull(result, row, column) != 0 ? nil : text(api.PQgetvalue(result, row, column))
            })
        }
        let affected = Int(text(api.PQcmdTuples(result))) ?? 0
        return PostgresRows(rows: rows, affected: affected)
    }
}

/// The text libpq returned (empty for none).
private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

private func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    text(pointer.map { UnsafePointer($0) })
}

/// What a statement returned: its rows as text (nil for NULL), and how many rows it changed.
struct PostgresRows: Sendable {
    var rows: [[String?]]
    var affected: Int
}
#endif

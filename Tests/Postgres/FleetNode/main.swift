import Foundation
import SessionCore
import SessionPostgres
import SessionTesting

// One node of a fleet for PostgresTests: it shares the sessions of LocalProvider's demo client
// with the other nodes through PostgreSQL.
//
//   FleetNode CONNINFO-FILE ISSUER COUNT [no-lease]
//
// It opens the accounts user-000 ... user-(COUNT-1), prints "ready", waits for a line on standard
// input, then uses every session at once, in a random order, two callers each: valid tokens, then
// the UserInfo with them. It prints "done ok N" and, when some failed, " failed CODE:COUNT ...".
// `no-lease`: refreshes take no lease across the nodes (to show what the lease prevents).

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let issuer = URL(string: arguments[2]), let count = Int(arguments[3]),
      let redirect = LocalProvider.Client.demo.redirectURIs.first else {
    say("usage: FleetNode CONNINFO-FILE ISSUER COUNT [no-lease]")
    exit(2)
}
/// Uses every session at once and returns how many ended how.
func useEverySession(connectionStringFile: String, issuer: URL, redirect: URL, count: Int, takesLease: Bool) async throws -> [String: Int] {
    let connectionString = try String(contentsOfFile: connectionStringFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let configuration = try SessionConfiguration(issuer: issuer, clientID: LocalProvider.Client.demo.id, redirectURI: redirect)
    let provider = OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 20))
    var store = PostgresAccountStore(database: try PostgresDatabase(connectionString: connectionString), configuration: configuration)
    store.takesLease = takesLease
    let accounts = store
    try await accounts.database.prepare()
    say("ready")
    _ = readLine()
    let subjects = (0..<count).map { String(format: "user-%03d", $0) }.shuffled()
    return await withTaskGroup(of: String.self) { group in
        for subject in subjects {
            group.addTask {
                do {
                    let client = SessionClient(provider: provider, store: try accounts.tokenStore(forSubject: subject))
                    guard try await client.loadStoredSession() != nil else { return "none" }
                    async let first = client.validTokens()
                    async let second = client.validTokens()
                    _ = try await (first, second)
                    _ = try await client.userInfo()
                    return "ok"
                } catch let error as SessionError {
                    return error.code.rawValue
                } catch {
                    return "\(type(of: error))"
                }
            }
        }
        var tally: [String: Int] = [:]
        for await outcome in group { tally[outcome, default: 0] += 1 }
        return tally
    }
}

do {
    let outcomes = try await useEverySession(connectionStringFile: arguments[1], issuer: issuer, redirect: redirect, count: count,
                                             takesLease: !arguments.dropFirst(4).contains("no-lease"))
    let failed = outcomes.filter { $0.key != "ok" }.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
    say("done ok \(outcomes["ok"] ?? 0)" + (failed.isEmpty ? "" : " failed " + failed.joined(separator: " ")))
} catch {
    say("error \((error as? SessionError)?.message ?? "\(type(of: error))")")
    exit(1)
}

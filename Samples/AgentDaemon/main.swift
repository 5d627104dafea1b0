import Foundation
import SessionCore

// agentd: the daemon half of a headless sync agent. It restores the session agentctl signed in,
// then does one round of work every --every milliseconds with a fresh access token, and stops when
// the session ends: a refresh the provider refuses, or a logout in another process, which it
// learns of at its next round.
//
//   agentd --issuer URL --client-id ID --store DIRECTORY [--every MILLISECONDS]

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst(), argument.hasPrefix("--"), let value = arguments.popFirst() {
    options[String(argument.dropFirst(2))] = value
}
guard let issuerText = options["issuer"], let issuer = URL(string: issuerText), let clientID = options["client-id"],
      let directory = options["store"] else {
    FileHandle.standardError.write(Data("usage: agentd --issuer URL --client-id ID --store DIRECTORY [--every MILLISECONDS]\n".utf8))
    exit(2)
}
let every = UInt64(options["every"] ?? "") ?? 5_000

do {
    let configuration = try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: URL(string: "http://127.0.0.1/callback")!,
                                                 scopes: ["openid", "offline_access"])
    let client = SessionClient(configuration: configuration,
                               store: try FileTokenStore(configuration: configuration, directory: URL(fileURLWithPath: directory)))
    guard try await client.restoreUsableSession() != nil else {
        say("not signed in: run agentctl login first")
        exit(2)
    }
    var round = 0
    while true {
        do {
            _ = try await client.validTokens()   // refreshed when due; a sign-out elsewhere ends it here
            round += 1
            say("round \(round) ok")
        } catch let error as SessionError where error.code == .reauthenticationRequired || error.code == .notAuthenticated {
            say("the session ended: \(error.message)")
            exit(3)
        } catch {
            say("round failed, the session is kept: \(error)")
        }
        try await Task.sleep(nanoseconds: every * 1_000_000)
    }
} catch let error as SessionError {
    say("agentd: \(error.message)")
    exit(1)
}

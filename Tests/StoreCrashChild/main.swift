import Foundation
import SessionCore
import SessionTesting

// A client process for StoreCrashTests, which kills it with SIGKILL mid-work, and for
// NothingLeftBehindTests, which looks at what a run leaves on disk:
//
//   StoreCrashChild ISSUER STORE-DIRECTORY refresh   restore or sign in, print "ready", then
//                                                    refresh (rotating) until killed
//   StoreCrashChild ISSUER STORE-DIRECTORY end       restore or sign in, print "ready", then sign
//                                                    out with revocation and print "ended"
//   StoreCrashChild ISSUER STORE-DIRECTORY verify    restore, then use the session: "none",
//                                                    "ok", or "error CODE" (exit 1)
//   StoreCrashChild ISSUER STORE-DIRECTORY race      restore, print "ready", wait for a line on
//                                                    standard input, then ask 100 concurrent
//                                                    callers for valid tokens and print "tokens
//                                                    DIGEST" (a digest of the access token they all
//                                                    got) or "error CODE"
//   StoreCrashChild ISSUER default sign-in           sign in, storing the session where
//                                                    PlatformDefaults puts it, and print "signed in"
//
// Every mode uses the platform's default transport.

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let issuer = URL(string: arguments[1]), let redirect = LocalProvider.Client.demo.redirectURIs.first else {
    say("usage: StoreCrashChild ISSUER STORE-DIRECTORY|default refresh|end|verify|race|sign-in")
    exit(2)
}
do {
    let configuration = try SessionConfiguration(issuer: issuer, clientID: LocalProvider.Client.demo.id, redirectURI: redirect)
    let store = arguments[2] == "default" ? try PlatformDefaults.tokenStore(for: configuration)
        : try FileTokenStore(configuration: configuration, directory: URL(fileURLWithPath: arguments[2]))
    let client = SessionClient(configuration: configuration, store: store)
    let restored = try await client.loadStoredSession()
    switch arguments[3] {
    case "verify":
        guard restored != nil else {
            say("none")
            exit(0)
        }
        _ = try await client.userInfo()
        _ = try await client.refresh()
        say("ok")
    case "refresh":
        if restored == nil { _ = try await client.signIn(agent: HeadlessUserAgent()) }
        say("ready")
        while true { _ = try await client.refresh() }
    case "race":
        guard restored != nil else {
            say("none")
            exit(0)
        }
        say("ready")
        _ = readLine()
        let accessTokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await client.validTokens().accessToken } }
            var seen = Set<String>()
            for try await token in group { seen.insert(token) }
            return seen
        }
        guard accessTokens.count == 1, let token = accessTokens.first else {
            say("callers got \(accessTokens.count) different access tokens")
            exit(1)
        }
        say("tokens " + (try PlatformCrypto.hexDigest(of: token, bytes: 6)))
    case "sign-in":
        _ = try await client.signIn(agent: HeadlessUserAgent())
        say("signed in")
    case "end":
        if restored == nil { _ = try await client.signIn(agent: HeadlessUserAgent()) }
        say("ready")
        try await client.signOut(revokeTokens: true)
        say("ended")
    default:
        say("unknown mode \(arguments[3])")
        exit(2)
    }
} catch let error as SessionError {
    say("error \(error.code.rawValue)")
    exit(1)
}

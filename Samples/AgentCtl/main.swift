import Foundation
import SessionCore

// agentctl: the command-line half of a headless sync agent, on the device grant (RFC 8628).
// It shares one session file with agentd, the daemon that uses the session.
//
//   agentctl --issuer URL --client-id ID --store DIRECTORY login    sign in on another device
//   agentctl --issuer URL --client-id ID --store DIRECTORY status   say who is signed in
//   agentctl --issuer URL --client-id ID --store DIRECTORY logout   revoke and sign out, everywhere

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("agentctl: \(message)\n".utf8))
    exit(status)
}

var options: [String: String] = [:]
var command: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument.hasPrefix("--") {
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value", status: 2) }
        options[String(argument.dropFirst(2))] = value
    } else {
        command = argument
    }
}
guard let issuerText = options["issuer"], let issuer = URL(string: issuerText), let clientID = options["client-id"],
      let directory = options["store"], let command else {
    fail("usage: agentctl --issuer URL --client-id ID --store DIRECTORY login|status|logout", status: 2)
}

do {
    // A device sign-in has no redirect; the configuration still names one (it is never used).
    let configuration = try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: URL(string: "http://127.0.0.1/callback")!,
                                                 scopes: ["openid", "offline_access"])
    let client = SessionClient(configuration: configuration,
                               store: try FileTokenStore(configuration: configuration, directory: URL(fileURLWithPath: directory)))
    switch command {
    case "login":
        let authorization = try await client.beginDeviceAuthorization()
        // The user code and URL are what the user needs (the core refused any that is unsafe to show).
        print("To sign in, open \(authorization.verificationURI.absoluteString) and enter \(authorization.userCode)")
        let tokens = try await client.completeDeviceAuthorization(authorization)
        print("signed in as \(tokens.subject ?? "the user")")
    case "status":
        if let tokens = try await client.loadStoredSession() {
            print("signed in as \(tokens.subject ?? "the user")")
        } else {
            print("not signed in")
        }
    case "logout":
        try await client.signOut(revokeTokens: true)
        print("signed out")
    default:
        fail("unknown command \(command)", status: 2)
    }
} catch let error as SessionError {
    fail(error.message, status: 1)
}

import DemoTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The built `session-demo` executable, run as a user runs it.
final class SessionDemoTests: XCTestCase {
    private static let walk = [
        "didFinishInitializationWithError", "didFinishAuthentication", "didFetchUserInfo", "didFetchPermissions",
        "didUpdatePermissions", "didFetchPermissions", "didFetchUserInfo", "didEndSession",
    ]

    func testTheDefaultWalkShowsEveryCallbackInOrderAndExitsZero() async throws {
        let run = try await DemoProcess.run([])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(run.callbackNames, Self.walk)
        for (index, line) in run.callbacks.enumerated() {
            XCTAssertTrue(line.hasPrefix("  #\(index + 1) [session-demo.callbacks] "), line)
        }
        XCTAssertTrue(run.output.contains("didFetchUserInfo: sub=erika, Erika Mustermann <erika@example.com>"), run.output)
        XCTAssertTrue(run.output.contains("(the provider answered 1 refresh request"), run.output)
        XCTAssertTrue(run.output.contains("\nDone: 8 callbacks, 0 errors, session ended, in "), run.output)
        XCTAssertEqual(run.errorOutput, "")
        Self.assertNoSecrets(run)
    }

    func testASecondRunWithTheSameStoreRestoresTheSession() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("session.json").path

        let first = try await DemoProcess.run(["--store", store])
        XCTAssertEqual(first.status, 0, first.errorOutput)
        XCTAssertTrue(first.output.contains("endSession skipped"), first.output)

        let second = try await DemoProcess.run(["--store", store])
        XCTAssertEqual(second.status, 0, second.errorOutput)
        XCTAssertTrue(second.output.contains("(the session stored by an earlier run was restored)"), second.output)
        XCTAssertFalse(second.output.contains("-> getAuthorization"), "no new sign-in")
        XCTAssertEqual(Array(second.callbackNames.prefix(3)), ["didFinishInitializationWithError", "didFinishAuthentication", "didFetchUserInfo"])
        Self.assertNoSecrets(second)
    }

    /// `--device`: the code and URL are printed, the listener hears the code before the outcome
    /// (C16), and the walk goes on once the embedded provider approved.
    func testADeviceSignIn() async throws {
        let run = try await DemoProcess.run(["--device"])
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertTrue(run.output.contains("and enter the code "), run.output)
        XCTAssertEqual(Array(run.callbackNames.prefix(3)), ["didFinishInitializationWithError", "didReceiveDeviceAuthorization", "didFinishAuthentication"])
        Self.assertNoSecrets(run)
    }

    /// `--end-provider-session`: the walk ends with the provider's sign-out too.
    func testEndingTheProvidersSessionToo() async throws {
        let run = try await DemoProcess.run(["--end-provider-session"])
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertTrue(run.output.contains("endingProviderSessionWith"), run.output)
        XCTAssertEqual(run.callbackNames.last, "didEndSession")
        XCTAssertFalse(run.callbackNames.contains("didFailToEndProviderSession"))
    }

    /// An unreadable session file: the demo says so and names the flag that deletes it; with
    /// the flag, the run starts clean.
    func testAnUnreadableStoreNamesTheWayOutAndTheFlagTakesIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("session.json")
        try Data("{\"version\":1,".utf8).write(to: store)

        let stuck = try await DemoProcess.run(["--store", store.path])
        XCTAssertTrue(stuck.output.contains("add --discard-session to delete it"), stuck.output)
        XCTAssertTrue(stuck.output.contains("storageCorrupt"), stuck.output)

        try Data("{\"version\":1,".utf8).write(to: store)
        let discarded = try await DemoProcess.run(["--store", store.path, "--discard-session"])
        XCTAssertEqual(discarded.status, 0, discarded.output + discarded.errorOutput)
        XCTAssertTrue(discarded.output.contains("(what it held was discarded)"), discarded.output)
        XCTAssertFalse(discarded.output.contains("storageCorrupt"), discarded.output)

        let misuse = try await DemoProcess.run(["--discard-session"])
        XCTAssertEqual(misuse.status, 2, misuse.errorOutput)
    }

    func testAPipedInteractiveSession() async throws {
        let input = "init\n2 loginPermission\nuserinfo\npermissions TPID,SYNC_ID\nupdate invalid TPID,ETPID CPtest\nexpire\n3\nbogus\nend revoke\nuserinfo\nquit\n"
        let run = try await DemoProcess.run(["--interactive"], input: input)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(run.callbackNames, [
            "didFinishInitializationWithError", "didFinishAuthentication", "didFetchUserInfo", "didFetchPermissions",
            "didUpdatePermissions", "didFetchUserInfo", "didEndSession", "didFetchUserInfoWithError",
        ])
        XCTAssertTrue(run.output.contains("tpid=tpid-erika, sync_id=sync-erika"), run.output)
        XCTAssertTrue(run.output.contains("didUpdatePermissions: tpid=tpid-erika, etpid=etpid-erika"), run.output)
        XCTAssertTrue(run.output.contains("unknown command bogus"), run.output)
        XCTAssertTrue(run.output.contains("notAuthenticated"), "after end, there is no session")
        XCTAssertTrue(run.output.contains("Bye: 8 callbacks, 1 errors."), run.output)
    }

    func testTheWalkWithPushedAuthorizationRequests() async throws {
        let run = try await DemoProcess.run(["--par"])
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertTrue(run.output.contains("each sign-in pushed to the provider first (PAR, RFC 9126)"), run.output)
        XCTAssertTrue(run.output.contains("didFinishAuthentication"), run.output)
    }

    func testTheWalkWithDPoPBoundTokens() async throws {
        // The embedded provider then refuses any token request without a proof and asks for its
        // nonce: a walk that fetches UserInfo and refreshes proves both were made.
        let run = try await DemoProcess.run(["--dpop", "--par"])
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertTrue(run.output.contains("tokens bound to this process's DPoP key (RFC 9449)"), run.output)
        XCTAssertEqual(run.callbackNames, Self.walk)
        XCTAssertTrue(run.output.contains("didFetchUserInfo: sub=erika"), run.output)
        XCTAssertTrue(run.output.contains("(the provider answered 1 refresh request"), run.output)
        XCTAssertTrue(run.output.contains("\nDone: 8 callbacks, 0 errors, session ended, in "), run.output)
        Self.assertNoSecrets(run)
    }

    func testAnInteractiveSessionAddsSwitchesAndRemovesAccounts() async throws {
        let input = "init\nauth login\nadd max\naccounts\nuserinfo\nswitch erika\nuserinfo\nremove max\naccounts\nswitch max\nquit\n"
        let run = try await DemoProcess.run(["--interactive"], input: input)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertEqual(run.callbackNames, [
            "didFinishInitializationWithError", "didFinishAuthentication", "didFinishAuthentication", "didFetchUserInfo",
            "didFinishAuthentication", "didFetchUserInfo",
        ])
        let userInfos = run.output.split(separator: "\n").filter { $0.contains("didFetchUserInfo:") }
        XCTAssertEqual(userInfos.count, 2, run.output)
        XCTAssertTrue(userInfos.first?.contains("sub=max") == true, "the account added last is current")
        XCTAssertTrue(userInfos.last?.contains("sub=erika") == true, "switched to erika")
        let afterRemoval = try XCTUnwrap(run.output.components(separatedBy: "> remove max").last)
        XCTAssertTrue(afterRemoval.contains("* 1  erika"), afterRemoval)
        XCTAssertFalse(afterRemoval.contains("  max"), "max is gone")
        XCTAssertTrue(afterRemoval.contains("switch needs the number or subject of an account"), afterRemoval)
    }

    func testAnUnreachableProviderIsOneLineOnStandardErrorAndExitCode3() async throws {
        let run = try await DemoProcess.run(["--issuer", "http://127.0.0.1:1", "--client-id", "demo", "--no-browser"])
        XCTAssertEqual(run.status, 3)
        let lines = run.errorOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.errorOutput)
        XCTAssertTrue(lines.first?.hasPrefix("session-demo: initialize failed: cannotConnect (configuration)") == true, run.errorOutput)
        XCTAssertEqual(run.callbackNames, ["didFinishInitializationWithError"])
    }

    func testHelpAndUsageErrors() async throws {
        let help = try await DemoProcess.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("EXIT CODES"))
        for arguments in [["--bogus"], ["--issuer", "http://127.0.0.1:9"], ["--store"], ["--issuer", "not a url", "--client-id", "x"]] {
            let run = try await DemoProcess.run(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertEqual(run.errorOutput.split(separator: "\n").count, 1, "\(arguments): \(run.errorOutput)")
            XCTAssertTrue(run.errorOutput.hasPrefix("session-demo: "))
        }
    }

    func testNoColourWhenNotATerminalOrWithNoColor() async throws {
        let run = try await DemoProcess.run(["--interactive"], input: "quit\n", environment: ["NO_COLOR": "1"])
        XCTAssertFalse(run.output.contains("\u{1B}["))
    }

    /// Claims and a redirect's `error` carrying terminal escapes (retitle, clear screen, a C1
    /// CSI) reach the transcript as plain text: no control character but the demo's newlines.
    func testProviderStringsReachTheTerminalWithoutControlCharacters() async throws {
        let hostile = LocalProvider.User(subject: "erika", email: "erika@example.com\u{07}",
                                         givenName: "\u{1B}]0;owned\u{07}Erika", familyName: "Muster\u{9B}2J\nmann")
        let provider = try LocalProvider(options: { var options = LocalProvider.Options(); options.users = [hostile]; return options }())
        defer { provider.stop() }
        let signedIn = try await runAgainst(provider) { url, redirect, _ in
            try await HeadlessUserAgent().authorize(url: url, redirectURI: redirect)
        }
        XCTAssertEqual(signedIn.status, 0, signedIn.output + signedIn.errorOutput)
        XCTAssertTrue(signedIn.output.contains("didFetchUserInfo: sub=erika, ]0;ownedErika Muster2Jmann <erika@example.com>"), signedIn.output)
        assertNoControlCharacters(signedIn)

        let refused = try await runAgainst(provider) { _, redirect, state in
            var components = try XCTUnwrap(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "error", value: "\u{1B}[2J\u{1B}]0;owned\u{07}access_denied"),
                                     URLQueryItem(name: "error_description", value: "\u{9B}31mgone\r\nDone: 0 errors"),
                                     URLQueryItem(name: "state", value: state)]
            return try XCTUnwrap(components.url)
        }
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.callbackNames.contains("didFinishAuthenticationWithError") || refused.callbackNames.contains("didCancelAuthentication"),
                      refused.output)
        XCTAssertFalse(refused.output.contains("\nDone: 0 errors"), "a provider string cannot start a line of its own")
        assertNoControlCharacters(refused)
    }

    /// A confidential client signs in with its secret from a file, which never shows; the secret
    /// is refused on the command line's terms (a missing source is a usage error).
    func testAConfidentialClientWithItsSecretInAFile() async throws {
        let secret = "demo-secret-\(UUID().uuidString)"
        let provider = try LocalProvider(options: { var options = LocalProvider.Options()
            options.clients = [LocalProvider.Client(id: "server-app", redirectURIs: [URL(string: "http://127.0.0.1/callback")!],
                                                    authentication: .clientSecretBasic(secret))]
            return options }())
        defer { provider.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data((secret + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let run = try await runAgainst(provider, clientID: "server-app",
                                       extra: ["--client-auth", "basic", "--client-secret-file", file.path]) { url, redirect, _ in
            try await HeadlessUserAgent().authorize(url: url, redirectURI: redirect)
        }
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertFalse((run.output + run.errorOutput).contains(secret))
        XCTAssertEqual(provider.requests(to: .token).first?.authorization?.hasPrefix("Basic "), true)

        let missing = try await DemoProcess.run(["--issuer", provider.issuer.absoluteString, "--client-id", "server-app", "--client-auth", "basic"],
                                                environment: ["SESSION_DEMO_CLIENT_SECRET": ""])
        XCTAssertEqual(missing.status, 2, missing.errorOutput)

        // A FIFO as the secret file is refused at once instead of blocking the demo.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("secret-fifo-\(UUID().uuidString)")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let blocked = try await DemoProcess.run(["--issuer", provider.issuer.absoluteString, "--client-id", "server-app",
                                                 "--client-auth", "basic", "--client-secret-file", fifo.path])
        XCTAssertEqual(blocked.status, 2, blocked.errorOutput)
        XCTAssertTrue(blocked.errorOutput.contains("is not a regular file"), blocked.errorOutput)
    }

    /// A confidential client signs in with `private_key_jwt`, its key read from the environment
    /// (then from a file); a key file the client cannot use is a usage error naming the problem.
    func testAConfidentialClientWithAPrivateKey() async throws {
        let signingKey = try SigningKey(algorithm: .es256, keyID: "demo-key")
        let pem = try signingKey.pkcs8PEM()
        let registered = try ClientSigningKey(pem: pem, keyID: "demo-key")
        let provider = try LocalProvider(options: { var options = LocalProvider.Options()
            options.clients = [LocalProvider.Client(id: "server-app", redirectURIs: [URL(string: "http://127.0.0.1/callback")!],
                                                    authentication: .privateKeyJWT(registered))]
            return options }())
        defer { provider.stop() }
        let run = try await runAgainst(provider, clientID: "server-app", extra: ["--client-auth", "private-key-jwt", "--client-key-id", "demo-key"],
                                       environment: ["SESSION_DEMO_CLIENT_KEY": pem]) { url, redirect, _ in
            try await HeadlessUserAgent().authorize(url: url, redirectURI: redirect)
        }
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        XCTAssertFalse((run.output + run.errorOutput).contains(String(body.prefix(32))))
        XCTAssertNotNil(provider.requests(to: .token).first?.parameters["client_assertion"])

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString).pem")
        try Data(pem.replacingOccurrences(of: "PRIVATE KEY", with: "RSA PRIVATE KEY").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let unusable = try await DemoProcess.run(["--issuer", provider.issuer.absoluteString, "--client-id", "server-app",
                                                  "--client-auth", "private-key-jwt", "--client-key-file", file.path])
        XCTAssertEqual(unusable.status, 2, unusable.errorOutput)
        XCTAssertTrue(unusable.errorOutput.contains("convert it to PKCS #8"), unusable.errorOutput)
    }

    /// Runs the demo against `provider` without a browser; `browse` gets the sign-in URL the demo
    /// printed, its redirect URI and state, and returns the redirect to deliver to the demo.
    private func runAgainst(_ provider: LocalProvider, clientID: String = LocalProvider.Client.demo.id, extra: [String] = [],
                            environment: [String: String] = [:],
                            browse: @escaping @Sendable (URL, URL, String) async throws -> URL) async throws -> DemoRun {
        try await DemoProcess.run(
            ["--issuer", provider.issuer.absoluteString, "--client-id", clientID, "--no-browser"] + extra,
            environment: environment,
            onErrorLine: { line in
                guard let range = line.range(of: "Open this URL in a browser to sign in: "),
                      let url = URL(string: String(line[range.upperBound...])),
                      let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems,
                      let redirect = items.first(where: { $0.name == "redirect_uri" })?.value.flatMap(URL.init(string:)),
                      let state = items.first(where: { $0.name == "state" })?.value else { return }
                Task {
                    guard let callback = try? await browse(url, redirect, state) else { return }
                    _ = try? await CurlTransport(timeout: 10).send(HTTPRequest(method: "GET", url: callback))
                }
            })
    }

    private func assertNoControlCharacters(_ run: DemoRun, file: StaticString = #filePath, line: UInt = #line) {
        for (name, text) in [("standard output", run.output), ("standard error", run.errorOutput)] {
            let controls = text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
            XCTAssertTrue(controls.isEmpty, "\(name) has control characters \(controls.map { String($0.value, radix: 16) })",
                          file: file, line: line)
        }
    }

    func testTheLegacySamplesRunToTheirEnd() async throws {
        let netId = try await DemoProcess.run([], executable: "netid-sample")
        XCTAssertEqual(netId.status, 0, netId.output + netId.errorOutput)
        XCTAssertTrue(netId.output.hasSuffix("6. session ended\n"), netId.output)
        let grabId = try await DemoProcess.run([], executable: "grabid-sample")
        XCTAssertEqual(grabId.status, 0, grabId.output + grabId.errorOutput)
        XCTAssertTrue(grabId.output.contains("3. ID token for user erika"), grabId.output)
        XCTAssertTrue(grabId.output.hasSuffix("4. logged out\n"), grabId.output)
        let google = try await DemoProcess.run([], executable: "googlesignin-sample")
        XCTAssertEqual(google.status, 0, google.output + google.errorOutput)
        XCTAssertTrue(google.output.contains("2. signed in as Erika Mustermann <erika@example.com>"), google.output)
        XCTAssertTrue(google.output.hasSuffix("4. disconnected; previous sign-in: false\n"), google.output)
        let yeboId = try await DemoProcess.run([], executable: "yeboid-sample")
        XCTAssertEqual(yeboId.status, 0, yeboId.output + yeboId.errorOutput)
        XCTAssertEqual(yeboId.output, """
            1. signed in as erika
            2. tokens stored; granted scopes: offline_access openid profile
            3. refreshed; refresh token rotated: true
            4. signed out; tokens stored: none

            """)
        Self.assertNoSecrets(yeboId)
    }

    /// LocalProvider's tokens and codes start with these prefixes; none may be printed.
    private static func assertNoSecrets(_ run: DemoRun, file: StaticString = #filePath, line: UInt = #line) {
        for prefix in ["at-", "rt-", "code-"] where run.output.contains(prefix) || run.errorOutput.contains(prefix) {
            XCTFail("the output shows a value starting with \(prefix)", file: file, line: line)
        }
    }
}

import Dispatch
import Foundation
import SessionCore
import SessionFacade
import SessionTesting

/// The time comparisons: every side against the same LocalProvider, in interleaved rounds.
enum LatencyScenarios {
    /// Core `userInfo()` ÷ the same GET sent raw on a kept-alive connection, over loopback: with
    /// `URLSession` as an app would by hand and, on Linux, with libcurl driven directly on the
    /// calling thread (the same library as the core's transport, no client around it: the floor).
    static func userInfoCoreVersusRaw(_ options: BenchOptions, into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let (client, tokens) = try await signedInLoopbackClient(provider)
        let raw = RawHTTP()
        let request = RawHTTP.get(provider.url(of: .userInfo), bearer: tokens.accessToken)
        var sides = [
            Side(name: "userinfo.core.loopback") { count in
                for _ in 0..<count { _ = try await client.userInfo() }
            },
            Side(name: "userinfo.raw-urlsession.loopback") { count in
                for _ in 0..<count { _ = try await raw.send(request) }
            },
        ]
        #if canImport(CLibCurl)
        let curl = try RawCurl(get: provider.url(of: .userInfo), bearer: tokens.accessToken)
        sides.append(Side(name: "userinfo.raw-libcurl.loopback") { count in
            for _ in 0..<count { try curl.send() }
        })
        // The floor of any client that awaits its requests: the same raw GET, sent from a thread
        // of its own while the caller's task waits, so each request crosses two threads (there
        // and back), as every request of the core does.
        let handedOff = try RawCurl(get: provider.url(of: .userInfo), bearer: tokens.accessToken)
        let driver = DispatchQueue(label: "session-bench.raw-libcurl-driver")
        sides.append(Side(name: "userinfo.raw-libcurl+handoffs.loopback") { count in
            for _ in 0..<count { try await handedOff.send(on: driver) }
        })
        #endif
        let timings = try await measure(rounds: options.rounds, operations: options.loopbackOperations, sides)
        report.add(timings, sides, rounds: options.rounds, operations: options.loopbackOperations)
        report.add(ratio: "ratio.core-vs-raw-urlsession.userinfo.loopback", timings, 0, to: 1, goal: nil)
        #if canImport(CLibCurl)
        report.add(ratio: "ratio.core-vs-raw-libcurl.userinfo.loopback", timings, 0, to: 2, goal: 1.10)
        report.add(ratio: "ratio.raw-libcurl+handoffs-vs-raw-libcurl.userinfo.loopback", timings, 3, to: 2, goal: nil)
        report.add(ratio: "ratio.core-vs-raw-libcurl+handoffs.userinfo.loopback", timings, 0, to: 3, goal: nil)
        #endif
    }

    /// The facade's `fetchUserInfo` with completion handlers ÷ core `userInfo()`, each side with
    /// a client and transport of its own.
    ///
    /// The facade's calls are made back to back (it runs them one at a time); the core's are
    /// awaited one after another. Two more sides show where the difference lies: the core plus one
    /// empty block dispatched to a serial queue per call, which is the least any delivery on a
    /// callback queue costs, and facade calls each made from the previous one's completion
    /// handler, whose time is a call's latency. A chained call crosses threads twice, whoever
    /// makes it: from the caller's queue to the pool the core runs on, and back with the result.
    /// Its floor is the core called that way with nothing around it: from a block on a serial
    /// queue, its result handed back to that queue, where the next call starts.
    static func userInfoFacadeVersusCore(_ options: BenchOptions, inProcess: Bool, into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        func transport() -> HTTPTransport { inProcess ? provider.inProcessTransport : PlatformDefaults.httpTransport() }
        let service = try await signedInService(provider, transport: transport())
        let client = try await signedInClient(provider, transport: transport())
        let place = inProcess ? "in-process" : "loopback"
        let hopQueue = DispatchQueue(label: "session-bench.hop")
        let sides = [
            Side(name: "userinfo.facade.\(place)") { count in try await backToBackUserInfo(service, count: count) },
            Side(name: "userinfo.core.\(place)") { count in
                for _ in 0..<count { _ = try await client.userInfo() }
            },
            Side(name: "userinfo.core+dispatch.\(place)") { count in
                for _ in 0..<count {
                    _ = try await client.userInfo()
                    hopQueue.async {}
                }
            },
            Side(name: "userinfo.facade-chained.\(place)") { count in try await chainedUserInfo(service, count: count) },
            Side(name: "userinfo.core-chained.\(place)") { count in try await chainedUserInfo(client, on: hopQueue, count: count) },
        ]
        let operations = inProcess ? options.inProcessOperations : options.loopbackOperations
        let timings = try await measure(rounds: options.rounds, operations: operations, sides)
        report.add(timings, sides, rounds: options.rounds, operations: operations)
        report.add(ratio: "ratio.facade-vs-core.userinfo.\(place)", timings, 0, to: 1, goal: inProcess ? 1.20 : 1.05)
        report.add(ratio: "ratio.facade-vs-core+dispatch.userinfo.\(place)", timings, 0, to: 2, goal: nil)
        report.add(ratio: "ratio.facade-chained-vs-core.userinfo.\(place)", timings, 3, to: 1, goal: nil)
        report.add(ratio: "ratio.facade-chained-vs-core+dispatch.userinfo.\(place)", timings, 3, to: 2, goal: nil)
        report.add(ratio: "ratio.facade-chained-vs-core-chained.userinfo.\(place)", timings, 3, to: 4, goal: 1.15)
    }

    /// A full sign-in (authorization request through the agent, code exchange, ID-token
    /// validation, storing) ÷ its two requests sent raw, over loopback.
    static func signInVersusRaw(_ options: BenchOptions, into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let configuration = try provider.configuration()
        let transport = PlatformDefaults.httpTransport()
        let agent = HeadlessUserAgent(transport: transport)
        let client = SessionClient(configuration: configuration, transport: transport)
        _ = try await client.signIn(agent: agent)

        // The raw side replays one authorization request the core built; each GET gets a new code.
        let template = try await SessionClient(configuration: configuration, transport: transport).beginAuthorization()
        let raw = RawHTTP()
        let authorize = RawHTTP.get(template.url)
        let tokenEndpoint = provider.url(of: .token)
        let sides = [
            Side(name: "signin.core.loopback") { count in
                for _ in 0..<count { _ = try await client.signIn(agent: agent) }
            },
            Side(name: "signin.raw-urlsession.loopback") { count in
                for _ in 0..<count {
                    let (redirect, _) = try await raw.send(authorize, expecting: 302)
                    guard let location = redirect.value(forHTTPHeaderField: "Location"),
                          let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value else {
                        throw BenchFailure("raw authorization: no code in the redirect")
                    }
                    _ = try await raw.send(RawHTTP.post(tokenEndpoint, form: [
                        ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", template.redirectURI.absoluteString),
                        ("client_id", configuration.clientID), ("code_verifier", template.codeVerifier),
                    ]))
                }
            },
        ]
        let timings = try await measure(rounds: options.rounds, operations: options.signIns, sides)
        report.add(timings, sides, rounds: options.rounds, operations: options.signIns)
        report.add(ratio: "ratio.core-vs-raw.signin.loopback", timings, 0, to: 1, goal: 1.3)
    }
}

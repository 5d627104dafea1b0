import Foundation
import SessionCore
import SessionTesting

/// `session-bench --profile-userinfo N [core|dpop|raw|facade|compare|compare-facade] [in-process]`:
/// N UserInfo calls against LocalProvider over loopback (`in-process`: on its in-process
/// transport), and nothing else, for a profiler (`perf record -g`) or an instruction count
/// (`valgrind --tool=callgrind`); it prints the time per call. The calls are the core's (`dpop`: on
/// DPoP-bound tokens), raw libcurl's on a kept-alive connection (`raw`), or the facade's
/// `fetchUserInfo` made back to back (`facade`). `compare` runs the core, raw libcurl, and raw
/// libcurl sent from a thread of its own (two handoffs) in 9 interleaved rounds of N and prints the
/// medians and ratios; `compare-facade` does the same for the facade back to back, the core, and
/// the core plus one dispatched block per call, empty and holding the call's result.
enum ProfileLoop {
    static let flag = "--profile-userinfo"

    static func run(_ arguments: [String]) async -> Never {
        await NodeProcess.run {
            guard let count = arguments.first.flatMap(Int.init), count > 0 else {
                NodeProcess.say("usage: session-bench \(flag) COUNT [core|dpop|raw|facade|compare|compare-facade] [in-process]")
                exit(2)
            }
            let mode = arguments.dropFirst().first
            var providerOptions = LocalProvider.Options()
            providerOptions.offersDPoP = mode == "dpop"
            let provider = try LocalProvider(options: providerOptions)
            defer { provider.stop() }
            let (client, tokens) = try await signedInLoopbackClient(provider)
            #if canImport(CLibCurl)
            if mode == "compare" {
                let curl = try RawCurl(get: provider.url(of: .userInfo), bearer: tokens.accessToken)
                let handedOff = try RawCurl(get: provider.url(of: .userInfo), bearer: tokens.accessToken)
                let driver = DispatchQueue(label: "session-bench.raw-libcurl-driver")
                let sides = [Side(name: "core") { for _ in 0..<$0 { _ = try await client.userInfo() } },
                             Side(name: "raw") { for _ in 0..<$0 { try curl.send() } },
                             Side(name: "raw+handoffs") { for _ in 0..<$0 { try await handedOff.send(on: driver) } }]
                let timings = try await measure(rounds: 9, operations: count, sides)
                NodeProcess.say(String(format: "core %.1f µs, raw libcurl %.1f µs, raw libcurl with two handoffs %.1f µs; "
                                       + "core ÷ raw %.3f, core ÷ raw with handoffs %.3f", timings.median(0), timings.median(1),
                                       timings.median(2), timings.ratio(0, to: 1), timings.ratio(0, to: 2)))
                return
            }
            #endif
            let inProcess = arguments.dropFirst(2).first == "in-process"
            func transport() -> HTTPTransport { inProcess ? provider.inProcessTransport : PlatformDefaults.httpTransport() }
            let loop: () async throws -> Void
            switch mode {
            case "compare-facade":
                try await compareFacade(provider, transport: transport, count: count)
                return
            case "facade":
                let service = try await signedInService(provider, transport: transport())
                loop = { try await backToBackUserInfo(service, count: count) }
            case "raw":
                #if canImport(CLibCurl)
                let curl = try RawCurl(get: provider.url(of: .userInfo), bearer: tokens.accessToken)
                loop = { for _ in 0..<count { try curl.send() } }
                #else
                loop = {}
                #endif
            default:
                let dpop = mode == "dpop"
                let client = inProcess || dpop ? try await signedInClient(provider, transport: transport(), dpop: dpop ? .required : .off) : client
                loop = { for _ in 0..<count { _ = try await client.userInfo() } }
            }
            let start = DispatchTime.now().uptimeNanoseconds
            try await loop()
            let perCall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(count)
            NodeProcess.say(String(format: "%.1f µs per call", perCall))
        }
    }

    /// The facade back to back, the core, and the core plus one dispatched block per call, empty
    /// and holding the call's result, in 9 interleaved rounds of `count`; prints medians and ratios.
    private static func compareFacade(_ provider: LocalProvider, transport: () -> HTTPTransport, count: Int) async throws {
        let service = try await signedInService(provider, transport: transport())
        let client = try await signedInClient(provider, transport: transport())
        let hopQueue = DispatchQueue(label: "session-bench.hop")
        let sides = [Side(name: "facade") { try await backToBackUserInfo(service, count: $0) },
                     Side(name: "core") { for _ in 0..<$0 { _ = try await client.userInfo() } },
                     Side(name: "core+dispatch") {
                         for _ in 0..<$0 {
                             _ = try await client.userInfo()
                             hopQueue.async {}
                         }
                     },
                     Side(name: "core+delivery") {
                         for _ in 0..<$0 {
                             let userInfo = try await client.userInfo()
                             hopQueue.async { withExtendedLifetime(userInfo) {} }
                         }
                     }]
        let timings = try await measure(rounds: 9, operations: count, sides)
        NodeProcess.say(String(format: "facade %.1f µs, core %.1f µs, core plus one dispatch %.1f µs, with the result %.1f µs; "
                               + "facade ÷ core %.3f, facade ÷ core plus one dispatch %.3f, ÷ with the result %.3f", timings.median(0),
                               timings.median(1), timings.median(2), timings.median(3), timings.ratio(0, to: 1), timings.ratio(0, to: 2),
                               timings.ratio(0, to: 3)))
    }
}

import Foundation
import SessionCore
import SessionTesting

/// `session-bench --profile-userinfo N [raw|compare]`: N UserInfo calls of the core (or, with `raw`,
/// of raw libcurl on a kept-alive connection) against LocalProvider, and nothing else, for a
/// profiler (`perf record -g`) or an instruction count (`valgrind --tool=callgrind`); it prints the
/// time per call. `compare` runs both, and raw libcurl sent from a thread of its own (two handoffs), in 9
/// interleaved rounds of N and prints the medians and ratios.
enum ProfileLoop {
    static let flag = "--profile-userinfo"

    static func run(_ arguments: [String]) async -> Never {
        await NodeProcess.run {
            guard let count = arguments.first.flatMap(Int.init), count > 0 else {
                NodeProcess.say("usage: session-bench \(flag) COUNT [raw]")
                exit(2)
            }
            let provider = try LocalProvider()
            defer { provider.stop() }
            let (client, tokens) = try await signedInLoopbackClient(provider)
            #if canImport(CLibCurl)
            if arguments.dropFirst().first == "compare" {
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
            let start = DispatchTime.now().uptimeNanoseconds
            if arguments.dropFirst().first == "raw" {
                #if canImport(CLibCurl)
                let curl = try RawCurl(get: provider.url(of: .userInfo), bearer: tokens.accessToken)
                for _ in 0..<count { try curl.send() }
                #endif
            } else {
                for _ in 0..<count { _ = try await client.userInfo() }
            }
            let perCall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(count)
            NodeProcess.say(String(format: "%.1f µs per call", perCall))
        }
    }
}

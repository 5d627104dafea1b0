import Foundation
import SessionCore
import SessionTesting

/// What DPoP (RFC 9449) costs: a proof made for one request, and `userInfo()` with DPoP-bound
/// tokens ÷ with Bearer tokens over loopback, both sessions on one provider that checks every
/// proof (its ECDSA verification is in the DPoP side's time, as a real server's would be). The
/// floor beside it: one ES256 signature and its verification by libcrypto, added to a Bearer call.
enum DPoPCost {
    static func userInfoDPoPVersusBearer(_ options: BenchOptions, into report: inout Report) async throws {
        var providerOptions = LocalProvider.Options()
        providerOptions.offersDPoP = true
        let provider = try LocalProvider(options: providerOptions)
        defer { provider.stop() }
        let transport = PlatformDefaults.httpTransport()
        let bearer = try await signedInClient(provider, transport: transport)
        let bound = try await signedInClient(provider, transport: transport, dpop: .required)
        guard let tokens = await bound.tokens, let material = tokens.dpopKeyMaterial else { throw BenchFailure("the DPoP sign-in left no bound session") }
        let key = try DPoPKey(material: material)
        let url = provider.url(of: .userInfo)

        let sample = try DPoPProof.make(key: key, method: "GET", url: url, accessToken: tokens.accessToken, now: Date())
        guard let x = Base64URL.decode(key.x), let y = Base64URL.decode(key.y) else { throw BenchFailure("the key's point is not base64url") }
        let message = Data(sample.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        let proof = [
            Side(name: "dpop.proof.make") { count in
                for _ in 0..<count { _ = try DPoPProof.make(key: key, method: "GET", url: url, accessToken: tokens.accessToken, now: Date()) }
            },
            Side(name: "dpop.key.load") { count in
                for _ in 0..<count { _ = try DPoPKey(material: material) }
            },
            Side(name: "dpop.proof.verify") { count in
                // A check of its own each time, so the jti is new to it.
                for _ in 0..<count { _ = try DPoPProofCheck().verify(sample, method: "GET", url: url, accessToken: tokens.accessToken, now: Date()) }
            },
            Side(name: "dpop.floor.sign-and-verify") { count in
                // What any DPoP costs with this libcrypto: one ES256 signature and its check, nothing else.
                for _ in 0..<count {
                    guard try PlatformCryptoBackend.verifyES256(x: x, y: y, message: message, rawSignature: try key.sign(message)) else {
                        throw BenchFailure("a signature did not verify")
                    }
                }
            },
        ]
        let proofTimings = try await measure(rounds: options.rounds, operations: options.inProcessOperations, proof)
        report.add(proofTimings, proof, rounds: options.rounds, operations: options.inProcessOperations)

        let sides = [
            Side(name: "userinfo.dpop.loopback") { count in
                for _ in 0..<count { _ = try await bound.userInfo() }
            },
            Side(name: "userinfo.bearer.loopback") { count in
                for _ in 0..<count { _ = try await bearer.userInfo() }
            },
        ]
        let timings = try await measure(rounds: options.rounds, operations: options.loopbackOperations, sides)
        report.add(timings, sides, rounds: options.rounds, operations: options.loopbackOperations)
        report.add(ratio: "ratio.dpop-vs-bearer.userinfo.loopback", timings, 0, to: 1, goal: 1.15)
        // The least any client and server on these two cores could add to the Bearer call.
        let floor = proofTimings.median(3), bearerCall = timings.median(1)
        report.add("ratio.dpop-floor-vs-bearer.userinfo.loopback", bearerCall > 0 ? (bearerCall + floor) / bearerCall : 0, "×",
                   "(Bearer call + dpop.floor.sign-and-verify) ÷ Bearer call: libcrypto's signature and check alone")
        let proved = provider.requests(to: .userInfo).filter { $0.dpopProof != nil && $0.authorization?.hasPrefix("DPoP ") == true }
        report.check("dpop.userinfo-requests-proved", expected: "true", actual: "\(!proved.isEmpty)")
    }
}

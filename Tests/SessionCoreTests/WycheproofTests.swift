import Foundation
@testable import SessionCore
import XCTest

/// Project Wycheproof's vectors through the path ID tokens take: the key set is parsed as the
/// provider's JWKS (`JSONWebKeySet`), the key chosen by `kid` and algorithm, the header checked
/// and the signature verified (`IDTokenValidator.verifySignature`). Every `valid` vector must be
/// accepted and every `invalid` one refused. `acceptable` vectors (legal but dubious encodings)
/// have no required verdict: the counts say what we did with them.
///
/// Applicable: vectors with a public key of a type we verify (RSA, EC P-256), whose algorithm is
/// RS256 or ES256, or which are invalid whatever the algorithm (we must refuse those too).
/// HMAC groups and valid vectors of other algorithms (PS256, ES512, ...) are not applicable.
final class WycheproofTests: XCTestCase {
    private let validator = IDTokenValidator(issuer: "", clientID: "", clock: SystemClock(), allowedSkew: 0)

    /// Whether `jws` verifies under the key set `keys` (a JWKS document).
    private func accepts(_ jws: () throws -> CompactJWS, keys: Data) async -> Bool {
        guard let keySet = try? JSONWebKeySet(data: keys), let jws = try? jws() else { return false }
        do {
            try await validator.verifySignature(jws) { _ in keySet }
            return true
        } catch {
            return false
        }
    }

    private static func keySet(_ keys: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["keys": keys])
    }

    /// A file of signatures over messages: every group names one public key as a JWK (`jwkMember`).
    private func runSignatureFile(_ name: String, algorithm: JWSAlgorithm, jwkMember: String) async throws {
        var tally = WycheproofTally()
        for group in try WycheproofVectors.load(name).groups {
            let tests = try XCTUnwrap(group["tests"] as? [[String: Any]])
            guard let jwk = group[jwkMember] as? [String: Any] else {
                tally.notApplicable += tests.count
                continue
            }
            var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue)]
            if let kid = jwk["kid"] as? String { header["kid"] = .string(kid) }
            let keys = try Self.keySet([jwk])
            for test in tests {
                let message = WycheproofVectors.bytes(try XCTUnwrap(test["msg"] as? String))
                let signature = WycheproofVectors.bytes(try XCTUnwrap(test["sig"] as? String))
                let accepted = await accepts({ CompactJWS(header: header, signingInput: message, signature: signature) }, keys: keys)
                tally.record(id: test["tcId"] ?? "?", comment: test["comment"] as? String ?? "",
                             expected: test["result"] as? String ?? "", accepted: accepted)
            }
        }
        print("Wycheproof \(name): \(tally)")
        XCTAssertEqual(tally.disagreements, [], "\(name)")
        XCTAssertGreaterThan(tally.valid + tally.invalid, 0, "\(name): no vector ran")
    }

    /// A file of compact JWS strings, each group with a public key (`public`: one JWK, or a set).
    private func runJWSFile(_ name: String) async throws {
        var tally = WycheproofTally()
        for group in try WycheproofVectors.load(name).groups {
            let tests = try XCTUnwrap(group["tests"] as? [[String: Any]])
            let published = group["public"] as? [String: Any]
            let keys = (published?["keys"] as? [[String: Any]]) ?? published.map { [$0] } ?? []
            let verifiable = keys.contains { ($0["kty"] as? String) == "RSA" || (($0["kty"] as? String) == "EC" && ($0["crv"] as? String) == "P-256") }
            for test in tests {
                let raw = test["jws"] as? String ?? ""
                let expected = test["result"] as? String ?? ""
                let named = Self.algorithm(of: raw)
                guard verifiable, expected == "invalid" || JWSAlgorithm.allCases.contains(where: { $0.rawValue == named }) else {
                    tally.notApplicable += 1
                    continue
                }
                let accepted = await accepts({ try CompactJWS(raw) { SessionError(.idTokenMalformed, process: .authentication, message: $0) } },
                                             keys: try Self.keySet(keys))
                tally.record(id: test["tcId"] ?? "?", comment: test["comment"] as? String ?? "", expected: expected, accepted: accepted)
            }
        }
        print("Wycheproof \(name): \(tally)")
        XCTAssertEqual(tally.disagreements, [], "\(name)")
        XCTAssertGreaterThan(tally.valid + tally.invalid, 0, "\(name): no vector ran")
    }

    /// The header's `alg`, read leniently, only to decide applicability.
    private static func algorithm(of raw: String) -> String? {
        guard let part = raw.split(separator: ".", omittingEmptySubsequences: false).first, let data = Base64URL.decode(part),
              let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return header["alg"] as? String
    }

    func testECDSAP256SHA256P1363() async throws {
        try await runSignatureFile("ecdsa_secp256r1_sha256_p1363_test", algorithm: .es256, jwkMember: "publicKeyJwk")
    }

    func testRSASignatures2048() async throws {
        try await runSignatureFile("rsa_signature_2048_sha256_test", algorithm: .rs256, jwkMember: "keyJwk")
    }

    func testRSASignatures3072() async throws {
        try await runSignatureFile("rsa_signature_3072_sha256_test", algorithm: .rs256, jwkMember: "keyJwk")
    }

    func testRSASignatures4096() async throws {
        try await runSignatureFile("rsa_signature_4096_sha256_test", algorithm: .rs256, jwkMember: "keyJwk")
    }

    func testJSONWebSignatures() async throws {
        try await runJWSFile("json_web_signature_test")
    }

    func testJSONWebKeys() async throws {
        try await runJWSFile("json_web_key_test")
    }
}

import ClientTestSupport
import Foundation
@testable import SessionCore
import SessionTesting
import XCTest

/// A provider's key set is input from outside: a key may verify ID tokens only when it says it
/// is for signatures (`use`, `key_ops`), when every member has its JSON type, and when it is not
/// a key anyone can forge for (RSA exponent 1, the ROCA fingerprint).
final class KeyHygieneTests: XCTestCase {
    /// Signs in against a provider whose published key (kid `key-1`) is `edit`ed as JSON members.
    private func signIn(algorithm: JWSAlgorithm = .rs256, editKey: @escaping (inout [String: Any]) -> Void) async throws -> SessionTokens {
        let provider = try FakeProvider(algorithm: algorithm)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: SigningKey.jwksDocument([provider.key.publicJWK])) as? [String: Any])
        var key = try XCTUnwrap((document["keys"] as? [[String: Any]])?.first)
        editKey(&key)
        let body = try JSONSerialization.data(withJSONObject: ["keys": [key]])
        provider.edit { $0.handlers["/jwks"] = { _ in HTTPResponse(status: 200, body: body) } }
        return try await makeClient(provider).signIn(agent: provider)
    }

    func testKeyOperationsAreHonoured() async throws {
        for algorithm in JWSAlgorithm.allCases {
            await assertSessionError(.idTokenUnknownKey) { try await self.signIn(algorithm: algorithm) { $0["key_ops"] = ["encrypt"] } }
            _ = try await signIn(algorithm: algorithm) { $0["key_ops"] = ["verify"] }
            _ = try await signIn(algorithm: algorithm) { $0["key_ops"] = ["sign", "verify"] }
        }
    }

    func testAKeyForEncryptionDoesNotVerify() async throws {
        for algorithm in JWSAlgorithm.allCases {
            await assertSessionError(.idTokenUnknownKey) { try await self.signIn(algorithm: algorithm) { $0["use"] = "enc" } }
        }
    }

    func testAMemberOfTheWrongTypeMakesTheKeyMalformedNotAbsent() async throws {
        let changes: [(JWSAlgorithm, (inout [String: Any]) -> Void)] = [
            (.rs256, { $0["use"] = 1 }), (.rs256, { $0["key_ops"] = "verify" }), (.rs256, { $0["key_ops"] = ["verify", 1] }),
            (.rs256, { $0["key_ops"] = ["verify", "verify"] }), (.rs256, { $0["kid"] = 1 }), (.rs256, { $0["alg"] = ["RS256"] }),
            (.es256, { $0["crv"] = 256 }), (.es256, { $0["x"] = 1 }), (.es256, { $0["use"] = ["sig"] }),
        ]
        for (algorithm, change) in changes {
            await assertSessionError(.idTokenUnknownKey) { try await self.signIn(algorithm: algorithm, editKey: change) }
        }
    }

    func testAKeyWithPublicExponentOneCannotBeUsedToForge() async throws {
        // With e = 1 the "signature" of a message is its own PKCS #1 v1.5 encoding: anyone can make it.
        let provider = try FakeProvider()
        let modulus = try XCTUnwrap(provider.key.publicJWK.n)
        provider.edit { settings in
            settings.handlers["/jwks"] = { _ in
                HTTPResponse(status: 200, body: SigningKey.jwksDocument([JSONWebKey(kty: "RSA", kid: "key-1", n: modulus, e: "AQ")]))
            }
            settings.handlers["/token"] = { [unowned provider] _ in
                let now = provider.clock.now().timeIntervalSince1970
                let claims = #"{"iss":"https://op.example","sub":"mallory","aud":"client-1","exp":\#(Int(now) + 600),"iat":\#(Int(now)),"nonce":"\#(provider.lastAuthorization["nonce"] ?? "")"}"#
                let input = Base64URL.encode(Data(#"{"alg":"RS256","kid":"key-1"}"#.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
                let digestInfo: [UInt8] = [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
                let tail = digestInfo + [UInt8](try PlatformCrypto.sha256(Data(input.utf8)))
                let encoded = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 256 - 3 - tail.count) + [0x00] + tail
                return FakeProvider.json(["access_token": "a", "token_type": "Bearer", "expires_in": 60,
                                          "id_token": "\(input).\(Base64URL.encode(Data(encoded)))"])
            }
        }
        let error = await assertSessionError(.idTokenSignatureInvalid) { try await makeClient(provider).signIn(agent: provider) }
        XCTAssertTrue(error?.message.contains("exponent is 1") == true, error?.message ?? "")
    }

    func testRSAKeyPolicy() throws {
        let modulus = Data([0xC3] + [UInt8](repeating: 0x5A, count: 254) + [0x6B])
        XCTAssertNil(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x01, 0x00, 0x01])))
        XCTAssertNil(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x03])), "e = 3 is weak practice but sound")
        XCTAssertEqual(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x01])), "the RSA public exponent is 1")
        XCTAssertEqual(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x00, 0x01])), "the RSA public exponent is 1")
        XCTAssertEqual(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x01, 0x00, 0x00])), "the RSA public exponent is even")
        XCTAssertEqual(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x01, 0, 0, 0, 0x01])), "the RSA public exponent is 2^32 or more")
        XCTAssertEqual(RSAKeyPolicy.problem(modulus: modulus.dropLast(), exponent: Data([0x03])), "the RSA key is shorter than 2048 bits")
        XCTAssertEqual(RSAKeyPolicy.problem(modulus: Data([0x00]) + modulus.dropLast(), exponent: Data([0x03])),
                       "the RSA key is shorter than 2048 bits", "leading zero bytes do not count")
    }

    func testAModulusWithTheROCAFingerprintIsRefused() throws {
        // Wycheproof's ROCA key (json_web_key_test.json, "jws_rsa_roca_key"), and the same modulus
        // with one bit changed: the fingerprint is a property of the whole number.
        let vectors = try WycheproofVectors.load("json_web_key_test")
        let group = try XCTUnwrap(vectors.groups.first { $0["comment"] as? String == "jws_rsa_roca_key" })
        let key = try XCTUnwrap(((group["public"] as? [String: Any])?["keys"] as? [[String: Any]])?.first)
        var modulus = try XCTUnwrap((key["n"] as? String).flatMap { Base64URL.decode($0) })
        XCTAssertEqual(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x01, 0x00, 0x01])),
                       "the RSA key has the ROCA fingerprint (CVE-2017-15361)")
        modulus[modulus.count - 1] ^= 0x02
        XCTAssertNil(RSAKeyPolicy.problem(modulus: modulus, exponent: Data([0x01, 0x00, 0x01])))
    }

    func testAKeyGeneratedHereHasNoROCAFingerprint() throws {
        let key = try SigningKey(algorithm: .rs256)
        let modulus = try XCTUnwrap(key.publicJWK.n.flatMap { Base64URL.decode($0) })
        XCTAssertFalse(RSAKeyPolicy.hasROCAFingerprint(modulus))
    }
}

@testable import SessionCore
import Foundation
import SessionTesting
import XCTest

/// DPoP proofs (RFC 9449 §4) as the core makes them, checked as a strict server checks them; and
/// each way a server refuses one.
final class DPoPProofTests: XCTestCase {
    private let url = URL(string: "https://rs.example/api/items?page=2#top")!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    func testAProofNamesItsRequestAndKeyAndVerifies() throws {
        let key = try DPoPKey.generate()
        let proof = try DPoPProof.make(key: key, method: "GET", url: url, accessToken: "at-1", nonce: "n-1", now: now)
        let jws = try CompactJWS(proof) { SessionError(.invalidResponse, process: .authentication, message: $0) }
        XCTAssertEqual(jws.header["typ"]?.stringValue, "dpop+jwt")
        XCTAssertEqual(jws.header["alg"]?.stringValue, "ES256")
        XCTAssertNil(jws.header["jwk"]?.objectValue?["d"], "the public key only")
        let claims = try XCTUnwrap(JSONValue.parse(jws.payload)?.objectValue)
        XCTAssertEqual(claims["htu"]?.stringValue, "https://rs.example/api/items", "no query, no fragment")
        XCTAssertEqual(claims["htm"]?.stringValue, "GET")
        XCTAssertEqual(claims["iat"]?.numberValue, now.timeIntervalSince1970)
        XCTAssertEqual(claims["nonce"]?.stringValue, "n-1")
        XCTAssertEqual(claims["ath"]?.stringValue, Base64URL.encode(try PlatformCrypto.sha256(Data("at-1".utf8))))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(claims["jti"]?.stringValue).count, 43, "256 bits from the CSPRNG")
        let thumbprint = try DPoPProofCheck().verify(proof, method: "GET", url: url, accessToken: "at-1", nonce: "n-1", now: now)
        XCTAssertEqual(thumbprint, try key.thumbprint())
    }

    func testTheKeyRoundTripsThroughItsStoredFormAndTheThumbprintIsRFC7638s() throws {
        let key = try DPoPKey.generateInMemory()
        let pkcs8 = try XCTUnwrap(key.pkcs8, "a key in memory is stored as PKCS #8")
        let restored = try DPoPKey(material: key.material)
        XCTAssertEqual(try restored.thumbprint(), try key.thumbprint())
        XCTAssertFalse("\(key)".contains(Base64URL.encode(pkcs8)))
        // RFC 7638 §3.1's example is RSA; for EC the members are crv, kty, x, y in that order.
        let thumbprint = try DPoPKey.thumbprint(x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")
        let expected = Base64URL.encode(try PlatformCrypto.sha256(Data(
            #"{"crv":"P-256","kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#.utf8)))
        XCTAssertEqual(thumbprint, expected)
        for garbage in [Data(), Data("not a key".utf8), try PlatformPrivateKey(generating: .rs256).pkcs8DER()] {
            XCTAssertThrowsError(try DPoPKey(pkcs8: garbage)) { error in
                XCTAssertEqual((error as? SessionError)?.code, .reauthenticationRequired)
            }
        }
    }

    func testEveryCheckRefusesWhatItShould() throws {
        let key = try DPoPKey.generate()
        let check = DPoPProofCheck()
        func refusal(_ proof: String, method: String = "POST", accessToken: String? = nil, nonce: String? = nil,
                     at time: Date? = nil) -> DPoPProofCheck.Refusal? {
            do {
                _ = try check.verify(proof, method: method, url: url, accessToken: accessToken, nonce: nonce, now: time ?? now)
                return nil
            } catch {
                return error
            }
        }
        func proof(method: String = "POST", url: URL? = nil, accessToken: String? = nil, nonce: String? = nil) throws -> String {
            try DPoPProof.make(key: key, method: method, url: url ?? self.url, accessToken: accessToken, nonce: nonce, now: now)
        }
        let good = try proof()
        XCTAssertNil(refusal(good))
        XCTAssertEqual(refusal(good), .invalid("jti was used before"), "a replayed proof")
        XCTAssertEqual(refusal(try proof(), method: "GET"), .invalid("htm is not GET"))
        XCTAssertEqual(refusal(try proof(url: URL(string: "https://rs.example/api/other")!)), .invalid("htu is not https://rs.example/api/items"))
        XCTAssertEqual(refusal(try proof(), at: now.addingTimeInterval(61)), .invalid("iat is missing or too far from now"))
        XCTAssertEqual(refusal(try proof(), at: now.addingTimeInterval(-61)), .invalid("iat is missing or too far from now"))
        XCTAssertEqual(refusal(try proof(accessToken: "other"), accessToken: "at-1"), .invalid("ath is not the access token's hash"))
        XCTAssertEqual(refusal(try proof(), accessToken: "at-1"), .invalid("ath is not the access token's hash"))
        XCTAssertEqual(refusal(try proof(), nonce: "n-2"), .useNonce)
        XCTAssertEqual(refusal(try proof(nonce: "n-1"), nonce: "n-2"), .useNonce)
        // The Kelvin sign (U+212A) is canonically equivalent to K: a server compares the bytes.
        XCTAssertEqual(refusal(try proof(nonce: "\u{212A}-1"), nonce: "K-1"), .useNonce)
        XCTAssertEqual(refusal(try proof(method: "LOC\u{212A}"), method: "LOCK"), .invalid("htm is not LOCK"))

        // Header tampering: each changed header is signed again with the same key, so only the check itself refuses it.
        let parts = try proof().split(separator: ".").map(String.init)
        func resigned(header: String) throws -> String {
            let input = Base64URL.encode(Data(header.utf8)) + "." + parts[1]
            return input + "." + Base64URL.encode(try key.sign(Data(input.utf8)))
        }
        let jwk = key.publicJWK.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",")
        XCTAssertEqual(refusal(try resigned(header: "{\"alg\":\"ES256\",\"jwk\":{\(jwk)},\"typ\":\"JWT\"}")), .invalid("typ is not dpop+jwt"))
        XCTAssertEqual(refusal(try resigned(header: "{\"alg\":\"none\",\"jwk\":{\(jwk)},\"typ\":\"dpop+jwt\"}")), .invalid("alg is not ES256"))
        XCTAssertEqual(refusal(try resigned(header: "{\"alg\":\"ES256\",\"jwk\":{\(jwk),\"d\":\"AAAA\"},\"typ\":\"dpop+jwt\"}")),
                       .invalid("jwk holds a private key"))
        let other = try DPoPKey.generate()
        let otherJWK = other.publicJWK.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",")
        XCTAssertEqual(refusal(try resigned(header: "{\"alg\":\"ES256\",\"jwk\":{\(otherJWK)},\"typ\":\"dpop+jwt\"}")),
                       .invalid("the signature does not verify with jwk"))
        XCTAssertEqual(refusal("a.b"), .invalid("not a compact JWS"))
    }

    func testTheReplayWindowRefusesAJTIWithinItAndForgetsOnlyWhatIsOlder() {
        var window = ReplayWindow()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertTrue(window.admit("first", at: start, window: 120))
        XCTAssertFalse(window.admit("first", at: start.addingTimeInterval(120), window: 120), "still within the window")
        // A busy server: a proof every 50 ms for five minutes.
        for step in 1...6_000 {
            XCTAssertTrue(window.admit("jti-\(step)", at: start.addingTimeInterval(Double(step) * 0.05), window: 120))
        }
        let end = start.addingTimeInterval(300)
        XCTAssertTrue(window.admit("first", at: end, window: 120), "forgotten once older than the window")
        XCTAssertFalse(window.admit("jti-6000", at: end, window: 120), "the newest are kept")
        XCTAssertFalse(window.admit("jti-3601", at: end, window: 120), "one just inside the window too")
        XCTAssertTrue(window.admit("jti-3599", at: end, window: 120), "one just outside it is not")
        XCTAssertLessThanOrEqual(window.remembered, 2_403, "only the last 120 s of proofs are held")
    }
}

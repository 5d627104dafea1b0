import Foundation
@testable import SessionCore
import SessionTesting
import XCTest

final class CryptoTests: XCTestCase {
    func testPKCEChallengeMatchesRFC7636AppendixB() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        XCTAssertEqual(pkce.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    func testSHA256MatchesFIPS180Vectors() throws {
        func hex(_ text: String) throws -> String {
            try PlatformCrypto.sha256(Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        XCTAssertEqual(try hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(try hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(try hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testGeneratedVerifiersAre43CharactersAndNeverRepeat() throws {
        let verifiers = try (0..<50).map { _ in try PKCE.generate().verifier }
        XCTAssertTrue(verifiers.allSatisfy { $0.count == 43 })
        XCTAssertEqual(Set(verifiers).count, verifiers.count)
    }

    func testBase64URLRejectsCharactersOutsideItsAlphabet() {
        XCTAssertEqual(Base64URL.decode("AQAB"), Data([1, 0, 1]))
        XCTAssertNil(Base64URL.decode("AQ+B"))
        XCTAssertNil(Base64URL.decode("AQAB="))
        XCTAssertNil(Base64URL.decode("A"))
    }

    func testSignaturesVerifyForBothAlgorithmsAndFailWhenTampered() throws {
        for algorithm in JWSAlgorithm.allCases {
            let key = try SigningKey(algorithm: algorithm)
            let message = Data("header.payload".utf8)
            let signature = try key.signature(of: message)
            XCTAssertTrue(try PlatformCrypto.verify(algorithm, key: key.publicJWK, message: message, signature: signature), "\(algorithm)")
            XCTAssertFalse(try PlatformCrypto.verify(algorithm, key: key.publicJWK, message: Data("header.payloaD".utf8), signature: signature))
            var flipped = signature
            flipped[flipped.startIndex + 5] ^= 0x01
            XCTAssertFalse(try PlatformCrypto.verify(algorithm, key: key.publicJWK, message: message, signature: flipped))
        }
    }

    func testKeysOfTheWrongShapeAreRefused() throws {
        let rsa = try SigningKey(algorithm: .rs256)
        var short = rsa.publicJWK
        short.n = Base64URL.encode(Data(repeating: 0xFF, count: 128))
        XCTAssertThrowsError(try PlatformCrypto.verify(.rs256, key: short, message: Data(), signature: Data()))
        XCTAssertThrowsError(try PlatformCrypto.verify(.es256, key: rsa.publicJWK, message: Data(), signature: Data(count: 64)))
    }
}

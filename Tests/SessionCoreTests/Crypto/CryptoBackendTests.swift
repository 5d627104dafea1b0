import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The crypto seam: what any backend must do (run here on the Linux one), and the PKCS #1 DER
/// form the Apple backend exchanges RSA keys in, which is platform-neutral code.
final class CryptoBackendTests: XCTestCase {
    /// An RSA 2048 public key as `openssl rsa -RSAPublicKey_out -outform DER` writes it.
    private let opensslDER = Data(base64Encoded: """
        MIIBCgKCAQEAlr02IVw/nLV1bISQ2BOFcq5CW0VyIqmnECt4Y4liFMFy82VLWCz6Et26Hqc+bhRo3N4AP6cIJhxJypEo8vz98GGEf4S5GiOdyzgsHQN0L88/\
        qH1jknTUhnYiZTm9ZVbwKweAQLQ6j5sQwFW47kbJVTUjEZ3LHjLUuG/oiesfQWAQVgQI0Xg8Dy+3uEBw4WZkymTbTxuZRzDcQcyqhnBg3k2aXWDABeaRktGJ\
        wmdnL9J23CvzU1p6AQgY7ymb/I7mFSyQB/hJ0SHmMQYMJHjX373cqBMBBgJErvnfGBBml2TDdlwNJjA8ptGEa/+mGM9p05fa1hikTdaXJl7EvelTgQIDAQAB
        """)!

    func testRSAPublicKeyDERReadsAndWritesWhatOpenSSLWrites() throws {
        let (modulus, exponent) = try RSAPublicKeyDER.decode(opensslDER)
        XCTAssertEqual(modulus.count, 256, "a 2048-bit modulus without its sign byte")
        XCTAssertEqual(exponent, Data([1, 0, 1]))
        XCTAssertEqual(RSAPublicKeyDER.encode(modulus: modulus, exponent: exponent), opensslDER)
    }

    func testRSAPublicKeyDERRefusesAnythingElse() throws {
        let der = [UInt8](opensslDER)
        var negative = der
        negative[8] = 0x80 // the zero byte that keeps the modulus positive
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("truncated", Array(der.dropLast())),
            ("trailing bytes", der + [0]),
            ("not a SEQUENCE", [0x31] + der.dropFirst()),
            ("a length longer than the input", [0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x02]),
            ("a five-byte length", [0x30, 0x85, 0, 0, 0, 0, 1, 0]),
            ("one INTEGER", [0x30, 0x03, 0x02, 0x01, 0x05]),
            ("three INTEGERs", [0x30, 0x09, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03, 0x02, 0x01, 0x01]),
            ("an empty INTEGER", [0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x03]),
            ("a negative modulus", negative),
        ]
        for (name, bytes) in cases {
            XCTAssertThrowsError(try RSAPublicKeyDER.decode(Data(bytes)), name) { error in
                XCTAssertEqual((error as? SessionError)?.code, .cryptoFailure, name)
            }
        }
    }

    func testEveryKeyTheBackendMakesSignsWhatItsPublicHalfVerifies() throws {
        let message = Data("header.payload".utf8)
        for algorithm in JWSAlgorithm.allCases {
            let key = try PlatformPrivateKey(generating: algorithm)
            let other = try PlatformPrivateKey(generating: algorithm)
            XCTAssertEqual(key.algorithm, algorithm)
            let signature = try key.sign(message)
            func verifies(_ publicKey: PublicKeyParameters, _ message: Data) throws -> Bool {
                switch publicKey {
                case .rsa(let n, let e):
                    XCTAssertEqual(try RSAPublicKeyDER.decode(RSAPublicKeyDER.encode(modulus: n, exponent: e)).modulus, n)
                    return try PlatformCryptoBackend.verifyRS256(modulus: n, exponent: e, message: message, signature: signature)
                case .p256(let x, let y):
                    XCTAssertEqual(signature.count, 64, "r || s")
                    return try PlatformCryptoBackend.verifyES256(x: x, y: y, message: message, rawSignature: signature)
                }
            }
            XCTAssertTrue(try verifies(key.publicKey(), message), "\(algorithm)")
            XCTAssertFalse(try verifies(key.publicKey(), Data("header.payloaD".utf8)), "\(algorithm): another message")
            XCTAssertFalse(try verifies(other.publicKey(), message), "\(algorithm): another key")
        }
    }
}

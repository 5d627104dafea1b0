#if canImport(CLibCrypto)
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The public keys libcrypto imported and keeps: a kept key still checks every signature, a
/// new one is never taken for a kept one, bad keys are not kept, and the store stays bounded.
final class LibCryptoPublicKeysTests: XCTestCase {
    private let message = Data("header.payload".utf8)

    private func verifies(_ key: PlatformPrivateKey, _ message: Data, _ signature: Data) throws -> Bool {
        switch try key.publicKey() {
        case .rsa(let n, let e): try LibCryptoBackend.verifyRS256(modulus: n, exponent: e, message: message, signature: signature)
        case .p256(let x, let y): try LibCryptoBackend.verifyES256(x: x, y: y, message: message, rawSignature: signature)
        }
    }

    func testAKeptKeyStillChecksEverySignature() throws {
        for algorithm in JWSAlgorithm.allCases {
            let key = try PlatformPrivateKey(generating: algorithm)
            let first = try key.sign(message), second = try key.sign(Data("another.payload".utf8))
            XCTAssertTrue(try verifies(key, message, first), "\(algorithm)")
            // The key is kept now: what it did not sign still fails.
            XCTAssertTrue(try verifies(key, Data("another.payload".utf8), second), "\(algorithm)")
            XCTAssertFalse(try verifies(key, Data("header.payloaD".utf8), first), "\(algorithm): another message")
            XCTAssertFalse(try verifies(key, message, second), "\(algorithm): another message's signature")
            var flipped = [UInt8](first)
            flipped[flipped.count / 2] ^= 0x01
            XCTAssertFalse(try verifies(key, message, Data(flipped)), "\(algorithm): a changed signature")
        }
    }

    func testAKeyWithOneCoordinateOfAKeptKeyIsItsOwn() throws {
        let kept = try PlatformPrivateKey(generating: .es256), other = try PlatformPrivateKey(generating: .es256)
        guard case .p256(let x, let y) = try kept.publicKey(), case .p256(_, let otherY) = try other.publicKey() else { return XCTFail("P-256 keys") }
        let signature = try kept.sign(message)
        XCTAssertTrue(try LibCryptoBackend.verifyES256(x: x, y: y, message: message, rawSignature: signature))
        // x of the kept key with another y is not on the curve (or another point): never the kept key.
        XCTAssertFalse((try? LibCryptoBackend.verifyES256(x: x, y: otherY, message: message, rawSignature: signature)) ?? false)
    }

    func testAPointOffTheCurveIsRefusedEveryTime() throws {
        let signature = try PlatformPrivateKey(generating: .es256).sign(message)
        let x = Data(repeating: 0x01, count: 32), y = Data(repeating: 0x02, count: 32)
        for attempt in 1...2 {
            XCTAssertThrowsError(try LibCryptoBackend.verifyES256(x: x, y: y, message: message, rawSignature: signature), "attempt \(attempt)") { error in
                XCTAssertEqual((error as? SessionError)?.code, .cryptoFailure)
            }
        }
    }

    func testTheKeptKeysAreBounded() throws {
        for _ in 0...LibCryptoPublicKeys.capacity {
            let key = try PlatformPrivateKey(generating: .es256)
            XCTAssertTrue(try verifies(key, message, try key.sign(message)))
            XCTAssertLessThanOrEqual(LibCryptoPublicKeys.count, LibCryptoPublicKeys.capacity)
        }
    }

    func testOneKeptKeyChecksSignaturesFromManyThreadsAtOnce() async throws {
        let key = try PlatformPrivateKey(generating: .es256)
        let message = self.message
        let signature = try key.sign(message)
        guard case .p256(let x, let y) = try key.publicKey() else { return XCTFail("a P-256 key") }
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    // Every other check is of a message the key did not sign.
                    let checked = index.isMultiple(of: 2) ? message : Data("other".utf8)
                    var all = true
                    for _ in 0..<20 { all = try LibCryptoBackend.verifyES256(x: x, y: y, message: checked, rawSignature: signature) == index.isMultiple(of: 2) && all }
                    return all
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        XCTAssertEqual(results, Array(repeating: true, count: 16))
    }
}
#endif

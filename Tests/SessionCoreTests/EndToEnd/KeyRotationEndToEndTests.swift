import ClientTestSupport
import Foundation
@testable import SessionCore
import SessionTesting
import XCTest

/// The provider rolls its signing keys over and withdraws old ones; the client follows, and a
/// withdrawn key stops verifying once the cached key set has expired.
final class KeyRotationEndToEndTests: XCTestCase {
    func testARolledOverKeyIsFetchedWhenATokenNamesIt() async throws {
        let harness = try makeLocalHarness()
        let first = harness.provider.signingKeyID
        _ = try await harness.signIn()
        let second = try harness.provider.rotateSigningKey()
        XCTAssertEqual(harness.provider.publishedKeyIDs, [first, second])

        harness.clock.advance(by: KeySetCache.reloadInterval + 1)
        _ = try await harness.signIn()
        XCTAssertEqual(harness.provider.requests(to: .jwks).count, 2, "the unknown key reloaded the set once")
    }

    func testAWithdrawnKeyStopsVerifyingWhenTheCachedSetExpires() async throws {
        let harness = try makeLocalHarness { $0.jwksMaxAge = 600 }
        _ = try await harness.signIn()
        // The provider withdraws the key it signs with, as after a theft; the holder keeps signing with it.
        XCTAssertTrue(harness.provider.unpublishKey(id: harness.provider.signingKeyID))

        harness.clock.advance(by: 599)
        _ = try await harness.signIn()
        XCTAssertEqual(harness.provider.requests(to: .jwks).count, 1, "within max-age the cached set is used")

        harness.clock.advance(by: 2)
        await assertSessionError(.idTokenUnknownKey) { _ = try await harness.signIn() }
        XCTAssertEqual(harness.provider.requests(to: .jwks).count, 2, "one fetch after max-age, none again at once")
    }

    func testAKeyRemovedAfterARolloverNoLongerVerifies() async throws {
        let harness = try makeLocalHarness()
        let old = harness.provider.signingKeyID
        _ = try await harness.signIn()
        try harness.provider.rotateSigningKey()
        harness.provider.unpublishKey(id: old)

        // Without Cache-Control the set is kept for the default lifetime, then fetched again.
        harness.clock.advance(by: KeySetCache.defaultLifetime + 1)
        _ = try await harness.signIn()
        XCTAssertEqual(harness.provider.requests(to: .jwks).count, 2)

        let cachedKeyIDs = harness.client.provider.documents.value.keySetCache?.keys.keys.compactMap(\.kid)
        XCTAssertEqual(cachedKeyIDs, [harness.provider.signingKeyID], "the removed key is gone from the client's set")
    }

    func testMaxAgeIsHonouredWithinTheFloorAndTheCap() async throws {
        for (maxAge, kept) in [(10.0, 300.0), (900.0, 900.0), (10 * 86_400.0, 86_400.0)] {
            let harness = try makeLocalHarness { $0.jwksMaxAge = maxAge }
            _ = try await harness.signIn()
            harness.clock.advance(by: kept - 1)
            _ = try await harness.signIn()
            XCTAssertEqual(harness.provider.requests(to: .jwks).count, 1, "max-age \(maxAge): kept \(kept) s")
            harness.clock.advance(by: 2)
            _ = try await harness.signIn()
            XCTAssertEqual(harness.provider.requests(to: .jwks).count, 2, "max-age \(maxAge): fetched again after \(kept) s")
        }
    }
}

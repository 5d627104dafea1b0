import DemoTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A process that signs in leaves on disk its session and nothing else: no cookie store, no cache.
final class NothingLeftBehindTests: XCTestCase {
    /// A sign-in in a process of its own, with `XDG_DATA_HOME` an empty directory: afterwards the
    /// directory holds only `SessionService`, the default store's folder. (Through
    /// FoundationNetworking, the process also left an empty folder named after its executable's
    /// folder there, for a cookie store nobody used.)
    func testASignInLeavesOnlyItsStoreInTheDataDirectory() async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("clean-\(UUID().uuidString)")
        let data = home.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }

        let run = try await DemoProcess.run([provider.issuer.absoluteString, "default", "sign-in"], executable: "StoreCrashChild",
                                            environment: ["XDG_DATA_HOME": data.path, "HOME": home.path])
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertEqual(run.output, "signed in\n")

        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data.path), ["SessionService"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.path), ["data"], "nothing beside it in HOME either")
        let stored = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("SessionService").path)
        XCTAssertFalse(stored.isEmpty, "the session was stored")
        XCTAssertTrue(stored.allSatisfy { $0.hasSuffix(".json") || $0.hasSuffix(".provider") }, "\(stored)")
    }
}

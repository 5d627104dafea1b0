import CLibSecret
import Foundation
import SessionCore
import SessionKeyring
import XCTest

/// Without a Secret Service: run by Tests/Keyring/run.sh outside any keyring, once with a session
/// bus that has no Secret Service on it and once with no session bus at all
/// (`SESSION_KEYRING_ABSENT` says which).
final class SecretServiceAbsentTests: XCTestCase {
    func testEveryCallIsAStorageFailureThatSaysWhy() async throws {
        guard let absent = ProcessInfo.processInfo.environment["SESSION_KEYRING_ABSENT"] else {
            throw XCTSkip("run by Tests/Keyring/run.sh without a keyring")
        }
        let expected = absent == "bus" ? "there is no D-Bus session bus" : "no Secret Service answers on the session bus"
        let configuration = try SessionConfiguration(issuer: URL(string: "https://op.example")!, clientID: "absent",
                                                     redirectURI: URL(string: "com.example.app:/cb")!)
        let store = SecretServiceTokenStore(configuration: configuration)
        let tokens = SessionTokens(accessToken: "a", refreshToken: "r", idToken: nil, expiresAt: nil, scopes: [], subject: nil)
        for (label, call) in [("load", { _ = try await store.load() }), ("save", { try await store.save(tokens) }),
                              ("clear", { try await store.clear() }),
                              ("list accounts", { _ = try await SecretServiceAccountStore(configuration: configuration).storedSessions() })]
            as [(String, () async throws -> Void)] {
            do {
                try await call()
                XCTFail("\(label) cannot succeed without a keyring")
            } catch let error as SessionError {
                XCTAssertEqual(error.code, .storageFailed, label)
                XCTAssertTrue(error.message.contains(expected), "\(label): \(error.message)")
            }
        }
    }
}

/// How libsecret's errors read: each failure a user can act on says which it is.
final class SecretServiceFailureTests: XCTestCase {
    func testEachFailureSaysWhich() {
        let dbus = Int32(CLIBSECRET_DBUS.rawValue), io = Int32(CLIBSECRET_IO.rawValue), secret = Int32(CLIBSECRET_SECRET.rawValue)
        let cases: [(Int32, Int32, String)] = [
            (dbus, Int32(CLIBSECRET_DBUS_SERVICE_UNKNOWN), "no Secret Service answers"),
            (dbus, Int32(CLIBSECRET_DBUS_NO_REPLY), "did not answer in time (D-Bus timeout)"),
            (dbus, Int32(CLIBSECRET_DBUS_TIMEOUT), "did not answer in time (D-Bus timeout)"),
            (io, Int32(CLIBSECRET_IO_TIMED_OUT), "did not answer in time (D-Bus timeout)"),
            (io, Int32(CLIBSECRET_IO_CANCELLED), "prompt was dismissed"),
            (io, Int32(CLIBSECRET_IO_NOT_FOUND), "no D-Bus session bus"),
            (secret, Int32(CLIBSECRET_ERROR_IS_LOCKED), "the keyring is locked"),
            (secret, Int32(CLIBSECRET_ERROR_PROTOCOL), "the Secret Service failed"),
            (Int32(CLIBSECRET_UNAVAILABLE.rawValue), 0, "libsecret is not installed"),
        ]
        for (domain, code, expected) in cases {
            let error = SecretServiceFailure.error("read the session", domain: domain, code: code, message: "glib says")
            XCTAssertEqual(error.code, .storageFailed)
            XCTAssertTrue(error.message.hasPrefix("cannot read the session: "), error.message)
            XCTAssertTrue(error.message.contains(expected), "\(domain)/\(code): \(error.message)")
        }
    }
}

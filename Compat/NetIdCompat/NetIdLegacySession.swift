import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade

/// Where netID's SDK kept its session: an AppAuth `OIDAuthState`, archived with `NSKeyedArchiver`,
/// in the `UserDefaults` suite `netIdSdk` under the key `authState` (netid-sdk-ios 1.2.0,
/// AppAuthManager.swift lines 31–32 and 77–109). ``NetIdService/initialize(_:)`` carries it over
/// unless ``NetIdConfig/carriesOverLegacySession`` is false.
public struct NetIdLegacySession: LegacySessionSource {
    /// netID's suite name.
    public static let suiteName = "netIdSdk"
    /// netID's key.
    public static let key = "authState"

    /// The suite read: netID's unless a test chooses another.
    public let suite: String

    /// netID's storage, or the suite `suite`.
    public init(suite: String = NetIdLegacySession.suiteName) {
        self.suite = suite
    }

    /// Names the storage in log lines.
    public var name: String { "netID's UserDefaults suite \(suite)" }

    /// The archived session, or nil when netID left none.
    /// - Throws: `storageCorrupt` when the value is not an `OIDAuthState` archive with a refresh token.
    public func legacySession() throws -> LegacySession? {
        guard let value = UserDefaults(suiteName: suite)?.object(forKey: Self.key) else { return nil }
        guard let data = value as? Data else { throw SessionError.unreadableLegacySession("the stored value is not data") }
        return try LegacySession(appAuthArchive: data)
    }

    /// Removes the archive, as netID's SDK did at sign-out.
    public func removeLegacySession() throws {
        guard let defaults = UserDefaults(suiteName: suite) else { return }
        defaults.removeObject(forKey: Self.key)
        defaults.synchronize()
    }
}

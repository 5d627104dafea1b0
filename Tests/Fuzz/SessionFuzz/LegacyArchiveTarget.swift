import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade
import SessionTesting

/// A legacy SDK's stored session: any bytes given to the AppAuth archive reader, which must
/// answer with a session or a `SessionError` (never a crash, a hang or another class).
enum LegacyArchiveTarget {
    static func run(_ data: Data) {
        expectOnly(SessionError.self) {
            _ = try LegacySession(appAuthArchive: data)
        }
    }

    /// Writes seeds made by SessionTesting's `AppAuthArchiver` (as AppAuth archives them) into
    /// `directory`: the run starts from real archives rather than from nothing.
    static func writeSeeds(to directory: URL) throws {
        let issuer = URL(string: "https://broker.netid.de")!
        var full = AppAuthArchiver(issuer: issuer, clientID: "client", refreshToken: "refresh", idToken: "a.b.c")
        full.scope = "openid profile email"
        var discoveryOnly = AppAuthArchiver(issuer: nil, clientID: "client", refreshToken: "refresh")
        discoveryOnly.discoveryIssuer = issuer
        let seeds = [
            ("auth-state", try full.authStateArchive()),
            ("discovery-only", try discoveryOnly.authStateArchive()),
            ("no-refresh-token", try AppAuthArchiver(issuer: issuer, clientID: "client", refreshToken: nil).authStateArchive()),
            ("fetcher-authorization", try full.fetcherAuthorizationArchive(userID: "123", email: "user@example.com")),
        ]
        for (name, data) in seeds { try data.write(to: directory.appendingPathComponent(name)) }
    }
}

import Foundation
import SessionCore

/// netID's permission center for the session of one `SessionClient`: reads and
/// writes the user's consents, authorized with the session's permission token
/// (`SessionTokens.permissionToken`) through the client's
/// `SessionClient.sendAuthorized(_:process:purpose:credential:)`, so tokens are
/// refreshed first when due, as for every call of the client.
///
/// ```swift
/// let center = PermissionCenter(client: client, endpoints: .netID)
/// let permissions = try await center.fetchPermissions(identifiers: [.tagProtocolIdentifier])
/// ```
public struct PermissionCenter: Sendable {
    /// The client whose session is used.
    public let client: SessionClient
    /// Where the center lives.
    public let endpoints: PermissionCenterEndpoints

    /// A permission center for `client`'s session at `endpoints`.
    public init(client: SessionClient, endpoints: PermissionCenterEndpoints) {
        self.client = client
        self.endpoints = endpoints
    }

    /// Reads the user's permissions, asking for `identifiers`.
    /// - Throws: token errors (see `SessionClient.validTokens()`); `insufficientScope`
    ///   (status `TOKEN_ERROR`) when the session has no permission token; `permissionRequestFailed`
    ///   with the center's `status_code` in `SessionError.permissionStatus`;
    ///   `invalidResponse`. All with process `permissionRead`.
    public func fetchPermissions(identifiers: Set<IdentifierOption> = []) async throws -> PermissionReadResponse {
        let request = HTTPRequest(method: "GET", url: Self.url(endpoints.read, identifiers: identifiers),
                                  headers: ["Accept": PermissionCenterEndpoints.MediaType.userStatus])
        let (response, _) = try await client.sendAuthorized(request, process: .permissionRead, purpose: "permission read") {
            try $0.permissionToken
        }
        return try PermissionCenterReply.read(response)
    }

    /// Writes `update` and returns the subject identifiers the center reports.
    /// - Throws: as ``fetchPermissions(identifiers:)``, with process `permissionWrite`.
    public func updatePermissions(_ update: PermissionUpdate, identifiers: Set<IdentifierOption> = []) async throws -> SubjectIdentifiers {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let request = HTTPRequest(method: "POST", url: Self.url(endpoints.write, identifiers: identifiers), headers: [
            "Content-Type": PermissionCenterEndpoints.MediaType.permissions,
            "Accept": PermissionCenterEndpoints.MediaType.subjectStatus,
        ], body: try encoder.encode(update))
        let (response, _) = try await client.sendAuthorized(request, process: .permissionWrite, purpose: "permission write") {
            try $0.permissionToken
        }
        return try PermissionCenterReply.write(response)
    }

    /// `endpoint?q.identifier.in=TPID,SYNC_ID` in a fixed order; no query when none are asked for.
    static func url(_ endpoint: URL, identifiers: Set<IdentifierOption>) -> URL {
        guard !identifiers.isEmpty, var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return endpoint }
        let list = IdentifierOption.allCases.filter(identifiers.contains).map(\.rawValue).joined(separator: ",")
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "q.identifier.in", value: list)]
        return components.url ?? endpoint
    }
}

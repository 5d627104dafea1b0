import Foundation

extension SessionClient {
    /// Fetches the UserInfo (OIDC Core §5.3) with a fresh access token.
    /// - Throws: token errors (see ``validTokens()``); `unsupportedProviderFeature` when the
    ///   provider has no UserInfo endpoint; `invalidToken` and other RFC 6750 errors;
    ///   `invalidResponse`; `userInfoSubjectMismatch` when its `sub` is not the ID token's.
    ///   All with process `userInfo`.
    public func userInfo() async throws -> UserInfo {
        try await within(.userInfo) {
            let tokens = try await validTokens()
            let metadata = try await discover()
            guard let endpoint = metadata.userInfoEndpoint else {
                throw SessionError(.unsupportedProviderFeature, process: .userInfo, message: "the provider has no UserInfo endpoint")
            }
            let request = HTTPRequest(method: "GET", url: endpoint,
                                      headers: ["Authorization": "Bearer \(tokens.accessToken)", "Accept": "application/json"])
            let response = try await exchange.send(request, process: .userInfo, purpose: "UserInfo")
            guard response.status == 200 else { throw ProviderExchange.statusError(response, process: .userInfo, purpose: "UserInfo") }
            if response.mediaType == "application/jwt" {
                throw SessionError(.invalidResponse, process: .userInfo, message: "UserInfo: signed responses are not supported")
            }
            let info = try UserInfo(data: response.body)
            if let subject = tokens.subject, !Exact.equal(info.sub, subject) {
                throw SessionError(.userInfoSubjectMismatch, process: .userInfo, message: "UserInfo: 'sub' is not the ID token's subject")
            }
            return info
        }
    }

    /// Reads the user's permissions from the permission center, asking for `identifiers`,
    /// authorized with the session's ``SessionTokens/permissionToken``.
    /// - Throws: token errors; `insufficientScope` (status `TOKEN_ERROR`) when the session has no
    ///   permission token; `invalidConfiguration` without permission-center endpoints;
    ///   `permissionRequestFailed` with the center's `status_code` in `permissionStatus`;
    ///   `invalidResponse`. All with process `permissionRead`.
    public func fetchPermissions(identifiers: Set<IdentifierOption> = []) async throws -> PermissionReadResponse {
        try await within(.permissionRead) {
            let (endpoints, token) = try await permissionContext(.permissionRead)
            let request = HTTPRequest(method: "GET", url: Self.permissionURL(endpoints.read, identifiers: identifiers), headers: [
                "Authorization": "Bearer \(token)",
                "Accept": PermissionCenterEndpoints.MediaType.userStatus,
            ])
            return try PermissionCenterReply.read(try await exchange.send(request, process: .permissionRead, purpose: "permission read"))
        }
    }

    /// Writes `update` to the permission center and returns the subject identifiers it reports.
    /// - Throws: as ``fetchPermissions(identifiers:)``, with process `permissionWrite`.
    public func updatePermissions(_ update: PermissionUpdate, identifiers: Set<IdentifierOption> = []) async throws -> SubjectIdentifiers {
        try await within(.permissionWrite) {
            let (endpoints, token) = try await permissionContext(.permissionWrite)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let request = HTTPRequest(method: "POST", url: Self.permissionURL(endpoints.write, identifiers: identifiers), headers: [
                "Authorization": "Bearer \(token)",
                "Content-Type": PermissionCenterEndpoints.MediaType.permissions,
                "Accept": PermissionCenterEndpoints.MediaType.subjectStatus,
            ], body: try encoder.encode(update))
            return try PermissionCenterReply.write(try await exchange.send(request, process: .permissionWrite, purpose: "permission write"))
        }
    }

    /// The endpoints and the permission token (``SessionTokens/permissionToken``) of fresh tokens.
    private func permissionContext(_ process: SessionError.Process) async throws -> (PermissionCenterEndpoints, String) {
        guard let endpoints = configuration.permissionCenter else {
            throw SessionError(.invalidConfiguration, process: process, message: "no permission-center endpoints are configured")
        }
        return (endpoints, try await validTokens().permissionToken)
    }

    /// `endpoint?q.identifier.in=TPID,SYNC_ID` in a fixed order; no query when none are asked for.
    static func permissionURL(_ endpoint: URL, identifiers: Set<IdentifierOption>) -> URL {
        guard !identifiers.isEmpty, var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return endpoint }
        let list = IdentifierOption.allCases.filter(identifiers.contains).map(\.rawValue).joined(separator: ",")
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "q.identifier.in", value: list)]
        return components.url ?? endpoint
    }

    /// Runs `body`, attributing any ``SessionError`` to `process`.
    func within<T>(_ process: SessionError.Process, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SessionError {
            throw error.in(process)
        }
    }
}

import Foundation

/// What a client says about itself when it registers (RFC 7591 §2): its redirect URIs, name and
/// kind. A public client that signs in with the authorization code and refreshes is the default.
public struct ClientMetadata: Sendable, Equatable {
    /// `redirect_uris`: where the server may send authorization responses.
    public var redirectURIs: [URL]
    /// `client_name`, shown to the user at consent.
    public var clientName: String?
    /// `client_uri`: the client's home page.
    public var clientURI: URL?
    /// `application_type` (OpenID Connect Dynamic Client Registration §2): `native` for a
    /// desktop or mobile app or a CLI with a loopback or private-scheme redirect, `web` for a
    /// remote web app. MCP asks every client to say which.
    public var applicationType: String
    /// `grant_types` (default `authorization_code` and `refresh_token`).
    public var grantTypes: [String]
    /// `token_endpoint_auth_method` (default `none`: a public client).
    public var tokenEndpointAuthMethod: String
    /// `scope`: the scopes the client may ask for, if it says.
    public var scope: [String]?

    /// Metadata for a client with `redirectURIs`, a native public client by default.
    public init(redirectURIs: [URL], clientName: String? = nil, clientURI: URL? = nil, applicationType: String = "native",
                grantTypes: [String] = ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: String = "none",
                scope: [String]? = nil) {
        self.redirectURIs = redirectURIs
        self.clientName = clientName
        self.clientURI = clientURI
        self.applicationType = applicationType
        self.grantTypes = grantTypes
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.scope = scope
    }

    /// The registration request's JSON body.
    var json: Data {
        var members: [String: Any] = [
            "redirect_uris": redirectURIs.map(\.absoluteString),
            "application_type": applicationType,
            "grant_types": grantTypes,
            "response_types": ["code"],
            "token_endpoint_auth_method": tokenEndpointAuthMethod,
        ]
        if let clientName { members["client_name"] = clientName }
        if let clientURI { members["client_uri"] = clientURI.absoluteString }
        if let scope { members["scope"] = scope.joined(separator: " ") }
        return (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}

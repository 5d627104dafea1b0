import Foundation
import SessionCore

extension LocalProvider {
    /// The provider's endpoints, for fault injection and the request log.
    public enum Endpoint: String, Sendable, CaseIterable, Hashable {
        /// `/.well-known/openid-configuration`.
        case discovery
        /// `/.well-known/oauth-authorization-server` (RFC 8414).
        case oauthMetadata
        /// `/jwks`.
        case jwks
        /// `/authorize`.
        case authorization
        /// `/token`.
        case token
        /// `/userinfo`.
        case userInfo
        /// `/revoke`.
        case revocation
        /// `/permissions/read`.
        case permissionRead
        /// `/permissions/write`.
        case permissionWrite
        /// `/device_authorization` (RFC 8628).
        case deviceAuthorization
        /// `/end_session` (OpenID Connect RP-Initiated Logout 1.0).
        case endSession
        /// `/par` (RFC 9126): pushed authorization requests.
        case pushedAuthorization
        /// `/introspect` (RFC 7662): whether a token is active, for confidential clients.
        case introspection
        /// `/register` (RFC 7591): dynamic client registration (``Options/offersDynamicRegistration``).
        case registration
        /// `/api` and below: the protected resources (``Options/protectedResources``).
        case protectedResource
        /// `/.well-known/oauth-protected-resource` and below: their metadata (RFC 9728).
        case resourceMetadata

        /// The endpoint's path.
        public var path: String {
            switch self {
            case .discovery: "/.well-known/openid-configuration"
            case .oauthMetadata: "/.well-known/oauth-authorization-server"
            case .jwks: "/jwks"
            case .authorization: "/authorize"
            case .token: "/token"
            case .userInfo: "/userinfo"
            case .revocation: "/revoke"
            case .permissionRead: "/permissions/read"
            case .permissionWrite: "/permissions/write"
            case .deviceAuthorization: "/device_authorization"
            case .endSession: "/end_session"
            case .pushedAuthorization: "/par"
            case .introspection: "/introspect"
            case .registration: "/register"
            case .protectedResource: "/api"
            case .resourceMetadata: "/.well-known/oauth-protected-resource"
            }
        }

        /// The endpoint serving `path`, if any.
        public init?(path: String) {
            let prefixed: [Self] = [.protectedResource, .resourceMetadata]
            guard let match = Self.allCases.first(where: { $0.path == path || prefixed.contains($0) && path.hasPrefix($0.path + "/") }) else {
                return nil
            }
            self = match
        }
    }
}

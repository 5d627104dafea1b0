import Foundation

extension LocalProvider {
    /// A protected resource the provider serves beside its endpoints, under `/api` (say
    /// `/api/files`), and for which it issues audience-restricted tokens (RFC 8707): a strict
    /// resource server, as MCP servers and APIs behind an authorization server are.
    ///
    /// Its identifier is the provider's issuer with its path. It publishes its metadata (RFC 9728)
    /// at `/.well-known/oauth-protected-resource` with its path inserted, answers a request without
    /// a token with `401` and a `Bearer` challenge naming that metadata, refuses a token not issued
    /// for it (`401 invalid_token`) and one without its ``scopes`` (`403 insufficient_scope` naming
    /// them) and one whose user authenticated longer ago than its ``maxAge`` (`401
    /// insufficient_user_authentication` with `max_age`, RFC 9470), and otherwise answers `200`
    /// with JSON naming itself, the subject and the token's scopes.
    public struct ProtectedResource: Sendable, Equatable {
        /// The path, `/api` or below it.
        public var path: String
        /// The scopes a token must have been granted for a request to succeed.
        public var scopes: Set<String>
        /// The most seconds since the user authenticated that the resource takes; nil for any.
        public var maxAge: Int?

        /// A resource at `path` that requires `scopes` and an authentication at most `maxAge` seconds old.
        public init(path: String, scopes: Set<String> = [], maxAge: Int? = nil) {
            self.path = path
            self.scopes = scopes
            self.maxAge = maxAge
        }
    }

    /// The identifier of the protected resource at `path` (its canonical URI, the `resource`
    /// clients send).
    public func resourceIdentifier(path: String) -> URL {
        URL(string: issuer.absoluteString + path) ?? issuer
    }
}

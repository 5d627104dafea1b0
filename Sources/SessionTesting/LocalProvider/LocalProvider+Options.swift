import Foundation
import LoopbackHTTP
import SessionCore

extension LocalProvider {
    /// How the provider is set up.
    public struct Options: Sendable {
        /// The registered public clients (default: ``Client/demo``).
        public var clients: [Client] = [.demo]
        /// The users; consent approves as the first unless a decision names another.
        public var users: [User] = [.erika]
        /// Lifetime of access tokens (`expires_in`).
        public var accessTokenLifetime: TimeInterval = 3600
        /// Lifetime of ID tokens.
        public var idTokenLifetime: TimeInterval = 3600
        /// Lifetime of authorization codes.
        public var codeLifetime: TimeInterval = 60
        /// Whether a refresh returns a new refresh token and retires the old one.
        public var rotatesRefreshTokens = true
        /// Whether a refresh revokes the access token issued with the refresh token it spent, as
        /// django-oauth-toolkit does: a client still holding that access token is refused (401).
        /// Default false, as at providers whose access tokens live until they expire.
        public var revokesAccessTokenOnRefresh = false
        /// How long after its rotation a retired refresh token may still be presented (Auth0's
        /// reuse interval, Okta's grace period): within it the provider answers with new tokens
        /// instead of revoking the grant. nil (the default): any reuse revokes it.
        public var refreshTokenReuseInterval: TimeInterval?
        /// The ID-token signing algorithm. ES256 by default: its key is made in microseconds,
        /// while an RSA-2048 key can take the better part of a second.
        public var signingAlgorithm: JWSAlgorithm = .es256
        /// Sent with the JWK Set as `Cache-Control: max-age` (whole seconds), how long a client
        /// may keep the keys; nil sends no `Cache-Control`.
        public var jwksMaxAge: TimeInterval?
        /// Whether the authorization endpoint takes only pushed requests (RFC 9126
        /// `require_pushed_authorization_requests`); the pushed authorization request endpoint is
        /// offered either way.
        public var requiresPushedAuthorizationRequests = false
        /// How long a pushed request's `request_uri` may be used (RFC 9126 `expires_in`).
        public var pushedRequestLifetime: TimeInterval = 60
        /// Whether the provider takes DPoP proofs (RFC 9449): it lists ES256 in
        /// `dpop_signing_alg_values_supported`, checks every proof sent to it, and binds the tokens
        /// of a proved request to the proof's key. Without it, proofs are ignored and tokens are
        /// Bearer, as at a provider that never heard of DPoP.
        public var offersDPoP = false
        /// Whether the token endpoint refuses requests without a DPoP proof (`invalid_request`).
        public var requiresDPoP = false
        /// Whether every proof must carry the provider's current nonce (RFC 9449 §8, §9), which it
        /// sends as `DPoP-Nonce`, refusing others with `use_dpop_nonce`.
        public var requiresDPoPNonce = false
        /// With ``requiresDPoPNonce``: whether every accepted proof makes the provider move on to a
        /// new nonce, sent with that answer (RFC 9449 §8.2), as providers that rotate often do: a
        /// client that does not learn it from each answer pays a refused request every time.
        public var rotatesDPoPNonceWithEveryAnswer = false
        /// Whether a client assertion must name the issuer as its only audience, a string (FAPI
        /// 2.0); otherwise the token endpoint's URL or the issuer will do, alone or in an array.
        public var requiresIssuerAsAssertionAudience = false
        /// How long a device sign-in's codes are valid (RFC 8628 `expires_in`).
        public var deviceCodeLifetime: TimeInterval = 600
        /// The polling interval a device sign-in is given (RFC 8628 `interval`), in whole seconds.
        public var devicePollingInterval: TimeInterval = 5
        /// When set, the first user approves every device sign-in by itself once it has been polled
        /// this many times, as a person at another device would after a moment (the demo's).
        public var approvesDeviceSignInsAfterPolls: Int?
        /// Sent with the discovery document as `Cache-Control: max-age` (nil: `no-store`, as every
        /// other JSON answer, so no client writes it down).
        public var discoveryMaxAge: TimeInterval?
        /// The provider's time source, for token expiry and ID-token times.
        public var clock: SessionClock = SystemClock()
        /// The loopback address to bind.
        public var host: LoopbackHTTPServer.Host = .ipv4
        /// The port to bind; 0 for an ephemeral one (or the one in ``stateFile``, when free).
        public var port: UInt16 = 0
        /// Where to keep tokens, grants, permissions and the port across runs (mode 0600), so a
        /// client's stored session still works with the next provider; nil keeps all in memory.
        public var stateFile: URL?
        /// How many requests ``LocalProvider/requestLog`` keeps, the newest (default 10,000), so a
        /// provider left running stays bounded.
        public var requestLogLimit = 10_000
        /// Whether ID tokens carry the user's profile (`name`, `given_name`, `family_name`,
        /// `picture`) when the grant has scope `profile`, and `email` with scope `email`, as
        /// Google's do (OIDC Core §5.4 lets a provider put them there). Default false: only UserInfo has them.
        public var idTokensCarryProfile = false
        /// Whether the authorization endpoint shows a page to choose which user signs in, for a
        /// person trying a sample in a browser (default false: the consent scripted by
        /// ``LocalProvider/scriptConsent(_:)``, else ``LocalProvider/defaultConsent``, decides at
        /// once). A scripted decision still comes first.
        public var showsLoginPage = false

        /// Whether the provider is an OpenID provider (the default). Without it, it is an OAuth 2.0
        /// authorization server only, as many that protect APIs are: its metadata is only at
        /// `/.well-known/oauth-authorization-server` (RFC 8414) and names no keys, UserInfo or
        /// logout (those endpoints answer 404), it refuses scope `openid` and issues no ID token,
        /// and a request without a scope gets a grant of none.
        public var servesOpenIDConnect = true
        /// Scopes the provider grants besides its own (`openid`, `profile`, `email`,
        /// `permission_management`, `offline_access`): an API's, say.
        public var additionalScopes: Set<String> = []

        /// The protected resources the provider serves and issues audience-restricted tokens for
        /// (RFC 8707); a `resource` naming anything else is refused with `invalid_target`.
        public var protectedResources: [ProtectedResource] = []

        /// Whether the provider takes dynamic client registrations (RFC 7591) at `/register`,
        /// naming the endpoint in its metadata. Registered clients live as long as the provider.
        public var offersDynamicRegistration = false
        /// How long a confidential registration's secret lives (`client_secret_expires_at`); the
        /// client is unknown afterwards. nil: it does not expire. Public registrations never do.
        public var registrationLifetime: TimeInterval?
        /// Whether the metadata says `client_id_metadata_document_supported`, and the provider takes
        /// a client whose ID is the URL of one of ``clientIDMetadataDocuments``.
        public var advertisesClientIDMetadataDocuments = false
        /// The Client ID Metadata Documents the provider reads, by URL: where a server fetches the
        /// document a `client_id` URL names, this provider reads it here, and checks it as a server
        /// must (its `client_id` is the URL, it names `redirect_uris`, it is a public client's).
        /// A URL without a valid document here is an unknown client.
        public var clientIDMetadataDocuments: [String: Data] = [:]

        /// The default options.
        public init() {}
    }
}

import Foundation
import LoopbackHTTP
import SessionCore
import SessionPermissions

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
        /// The ID-token signing algorithm. ES256 by default: its key is made in microseconds,
        /// while an RSA-2048 key can take the better part of a second.
        public var signingAlgorithm: JWSAlgorithm = .es256
        /// Sent with the JWK Set as `Cache-Control: max-age` (whole seconds), how long a client
        /// may keep the keys; nil sends no `Cache-Control`.
        public var jwksMaxAge: TimeInterval?
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

        /// The default options.
        public init() {}
    }

    /// A registered client: public (no secret) unless it registered a way to authenticate.
    /// PKCE is required of every client.
    public struct Client: Sendable, Equatable {
        /// The client ID.
        public var id: String
        /// Redirect URIs compared exactly, except that an http loopback URI registered without a
        /// port accepts any port (RFC 8252 §7.3).
        public var redirectURIs: [URL]
        /// How it must authenticate at the token and revocation endpoints (default: public).
        public var authentication: ClientAuthentication
        /// How its ID tokens are signed (default: with the provider's key; `.unsigned`: `alg` `none`).
        public var idTokenSigning: IDTokenSigning

        /// Creates a client.
        public init(id: String, redirectURIs: [URL], authentication: ClientAuthentication = .none,
                    idTokenSigning: IDTokenSigning = .signed) {
            self.id = id
            self.redirectURIs = redirectURIs
            self.authentication = authentication
            self.idTokenSigning = idTokenSigning
        }

        /// `session-demo`, with `com.example.sessiondemo:/callback` and `http://127.0.0.1/callback`.
        public static let demo = Client(id: "session-demo", redirectURIs: [
            URL(constant: "com.example.sessiondemo:/callback"),
            URL(constant: "http://127.0.0.1/callback"),
        ])
    }

    /// A user and the claims UserInfo returns for them.
    public struct User: Sendable, Equatable {
        /// The subject identifier (`sub`).
        public var subject: String
        /// `email`.
        public var email: String
        /// `given_name`.
        public var givenName: String
        /// `family_name`.
        public var familyName: String
        /// `birthdate`, ISO 8601.
        public var birthdate: String?
        /// `picture`, the profile image's URL; nil for none.
        public var picture: URL?
        /// The permission-center record the user starts with; nil for none.
        public var permissions: PermissionRecord?

        /// Creates a user.
        public init(subject: String, email: String, givenName: String, familyName: String, birthdate: String? = nil,
                    permissions: PermissionRecord? = nil) {
            self.subject = subject
            self.email = email
            self.givenName = givenName
            self.familyName = familyName
            self.birthdate = birthdate
            self.permissions = permissions
        }

        /// Erika Mustermann, subject `erika`, with a valid ID consent.
        public static let erika = User(subject: "erika", email: "erika@example.com", givenName: "Erika",
                                       familyName: "Mustermann", birthdate: "1964-08-12",
                                       permissions: PermissionRecord(idConsent: .valid, changedAt: "2026-01-01T00:00:00Z"))
    }

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
            }
        }

        /// The endpoint serving `path`, if any.
        public init?(path: String) {
            guard let match = Self.allCases.first(where: { $0.path == path }) else { return nil }
            self = match
        }
    }

    /// What the (scripted) user does on the authorization page.
    public enum ConsentDecision: Sendable, Equatable {
        /// Signs in as the first user and approves: the redirect carries a code.
        case approve
        /// Signs in as the user with this subject and approves.
        case approveAs(subject: String)
        /// Refuses: the redirect carries `error=access_denied`.
        case deny
        /// Closes the page: no redirect happens (the provider shows a page with no way on).
        case cancel
    }

    /// A failure injected at an endpoint.
    public enum Fault: Sendable, Equatable {
        /// Waits this many seconds, then answers normally.
        case delay(TimeInterval)
        /// Answers with this status and body (JSON unless `contentType` says otherwise), and any
        /// further `headers` (a `WWW-Authenticate` challenge, say).
        case status(Int, body: String = "", contentType: String = "application/json", headers: [String: String] = [:])
        /// Answers 200 with a body that is not valid JSON.
        case malformedBody
        /// Closes the connection without answering.
        case dropConnection
    }

    /// One request as the provider received it. ``description`` redacts secret values.
    public struct LoggedRequest: Sendable, CustomStringConvertible {
        /// The endpoint addressed; nil for an unknown path.
        public let endpoint: Endpoint?
        /// The method.
        public let method: String
        /// The path.
        public let path: String
        /// Query and form parameters (the first value of each name).
        public let parameters: [String: String]
        /// The `Authorization` header, if sent.
        public let authorization: String?
        /// The fault applied to this request, if any.
        public let fault: Fault?

        /// Method, path and parameter names; values of secret parameters are redacted.
        public var description: String {
            let names = parameters.keys.sorted().map { name in
                Self.secretParameters.contains(name) ? "\(name)=<redacted>" : "\(name)=\(parameters[name] ?? "")"
            }
            return "\(method) \(path) [\(names.joined(separator: ", "))]\(authorization == nil ? "" : " with an Authorization header")"
        }

        private static let secretParameters: Set<String> = ["code", "code_verifier", "code_challenge", "state", "nonce",
                                                             "token", "refresh_token", "access_token",
                                                             "client_secret", "client_assertion", "device_code"]
    }

    /// A subject's state in the permission center.
    public struct PermissionRecord: Sendable, Equatable, Codable {
        /// The ID consent.
        public var idConsent: PermissionStatus?
        /// When the ID consent last changed.
        public var changedAt: String?
        /// The IAB TC string.
        public var iabTcString: String?
        /// When the TC string last changed.
        public var iabTcStringChangedAt: String?

        /// Creates a record.
        public init(idConsent: PermissionStatus? = nil, changedAt: String? = nil, iabTcString: String? = nil,
                    iabTcStringChangedAt: String? = nil) {
            self.idConsent = idConsent
            self.changedAt = changedAt
            self.iabTcString = iabTcString
            self.iabTcStringChangedAt = iabTcStringChangedAt
        }
    }
}

/// A fault waiting to be applied; `remaining` nil means until removed.
struct InjectedFault: Sendable {
    var fault: LocalProvider.Fault
    var remaining: Int?
}

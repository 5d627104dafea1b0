import Foundation
import SessionCore

extension LocalProvider {
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
        /// Where the client takes back-channel logout tokens (OpenID Connect Back-Channel Logout
        /// 1.0 §2.2): an RP-initiated logout of a session of this client posts one there before
        /// the browser is sent back. Nil: none are sent.
        public var backChannelLogoutURI: URL?

        /// Creates a client.
        public init(id: String, redirectURIs: [URL], authentication: ClientAuthentication = .none,
                    idTokenSigning: IDTokenSigning = .signed, backChannelLogoutURI: URL? = nil) {
            self.id = id
            self.redirectURIs = redirectURIs
            self.authentication = authentication
            self.idTokenSigning = idTokenSigning
            self.backChannelLogoutURI = backChannelLogoutURI
        }

        /// `session-demo`, with `com.example.sessiondemo:/callback` and `http://127.0.0.1/callback`.
        public static let demo = Client(id: "session-demo", redirectURIs: [
            URL(constant: "com.example.sessiondemo:/callback"),
            URL(constant: "http://127.0.0.1/callback"),
        ])
    }
}

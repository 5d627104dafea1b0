import Foundation
@testable import SessionCore
@testable import SessionPermissions
@testable import SessionLoopback
import SessionTesting

/// SessionCore's parsers of what providers, browsers and the disk hand the client. Only success
/// or a `SessionError` is an answer.
enum CoreTargets {
    static let issuer = "https://issuer.example"
    static let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    /// One key of each algorithm, made once per run: inputs whose first byte is odd are signed
    /// with one of them, so the claim checks behind a valid signature are fuzzed too.
    static let keys: [SigningKey] = {
        guard let ec = try? SigningKey(algorithm: .es256, keyID: "fuzz-ec"), let rsa = try? SigningKey(algorithm: .rs256, keyID: "fuzz-rsa") else {
            fatalError("cannot make the fuzz signing keys")
        }
        return [ec, rsa]
    }()

    private static let keySet: JSONWebKeySet = {
        guard let set = try? JSONWebKeySet(data: SigningKey.jwksDocument(keys.map(\.publicJWK))) else { fatalError("bad fuzz key set") }
        return set
    }()

    static let configuration: SessionConfiguration = {
        guard let url = URL(string: issuer), let redirect = URL(string: "com.example.app:/callback"),
              let configuration = try? SessionConfiguration(issuer: url, clientID: "fuzz-client", redirectURI: redirect) else {
            fatalError("bad fuzz configuration")
        }
        return configuration
    }()

    /// The fuzzed provider's discovery document, made anew at each use: a `Data` kept in a static
    /// is one LeakSanitizer cannot follow.
    static var discoveryDocument: Data { Data((#"{"issuer":"https://issuer.example","authorization_endpoint":"https://issuer.example/authorize","#
        + #""token_endpoint":"https://issuer.example/token","jwks_uri":"https://issuer.example/jwks","#
        + #""subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256","ES256"],"#
        + #""authorization_response_iss_parameter_supported":true,"response_types_supported":["code"]}"#).utf8) }

    private static let metadata: ProviderMetadata = {
        guard let metadata = try? ProviderMetadata(data: discoveryDocument, expectedIssuer: issuer) else { fatalError("bad fuzz metadata") }
        return metadata
    }()

    private static let request: AuthorizationRequest = {
        guard let request = try? AuthorizationRequest(configuration: configuration, metadata: metadata, scopes: ["openid"],
                                                      redirectURI: configuration.redirectURI) else { fatalError("bad fuzz request") }
        return request
    }()

    /// A compact JWS (first byte even), or a payload signed here (first byte odd; bit 1 picks
    /// the key), through the decoder, the key lookup, the signature and the claim checks.
    static func jws(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = data.dropFirst()
        let raw = mode & 1 == 0 ? String(decoding: rest, as: UTF8.self) : signed(Data(rest), mode: mode)
        expectOnly(SessionError.self) {
            let token = try IDToken(raw)
            let validator = IDTokenValidator(issuer: issuer, clientID: "fuzz-client", clock: clock, allowedSkew: 60)
            try validator.verifySignature(token.jws, keySet: keySet)
            try validator.validateClaims(token, expectedNonce: "fuzz-nonce", expectedSubject: nil)
            _ = try SessionTokens(accessToken: "a", refreshToken: nil, idToken: raw, expiresAt: nil, scopes: [], subject: nil).permissionToken
        }
    }

    /// `payload` signed as a compact JWS with the key `mode`'s bit 1 picks, its header naming
    /// `type` as `typ` when given.
    static func signed(_ payload: Data, mode: UInt8, type: String? = nil) -> String {
        let key = keys[Int(mode >> 1) % keys.count]
        let typ = type.map { #","typ":"\#($0)""# } ?? ""
        let header = Base64URL.encode(Data(#"{"alg":"\#(key.algorithm.rawValue)","kid":"\#(key.keyID)"\#(typ)}"#.utf8))
        let signingInput = "\(header).\(Base64URL.encode(payload))"
        guard let signature = try? key.signature(of: Data(signingInput.utf8)) else { fatalError("signing failed") }
        return "\(signingInput).\(Base64URL.encode(signature))"
    }

    /// A UserInfo response body: every claim with a type (URLs, booleans, the address, the
    /// update time) read strictly.
    static func userInfo(_ data: Data) {
        expectOnly(SessionError.self) { _ = try UserInfo(data: data) }
    }

    /// A discovery document and RFC 8414 metadata, read as an OpenID provider's and as an OAuth
    /// 2.0 authorization server's.
    static func discovery(_ data: Data) {
        expectOnly(SessionError.self) {
            _ = ProviderMetadata.revocationEndpoint(fromOAuthMetadata: data, expectedIssuer: issuer)
            _ = try ProviderMetadata(data: data, expectedIssuer: issuer)
        }
        expectOnly(SessionError.self) {
            _ = try ProviderMetadata(data: data, expectedIssuer: issuer, document: .oauthAuthorizationServer, requiringPKCEListed: true)
        }
    }

    /// A protected resource's `WWW-Authenticate` header, read as challenges and as a resource's
    /// Bearer and DPoP challenges.
    static func resourceChallenge(_ data: Data) {
        let header = String(decoding: data, as: UTF8.self)
        expectOnly(SessionError.self) { _ = try AuthenticationChallenge.parse(header) }
        expectOnly(SessionError.self) { _ = try ResourceChallenge.challenges(in: HTTPResponse(status: 401, headers: ["WWW-Authenticate": header])) }
    }

    /// A protected resource's metadata document (RFC 9728) read for a resource with a path.
    static func resourceMetadata(_ data: Data) {
        guard let requested = URL(string: "https://mcp.example/mcp") else { return }
        expectOnly(SessionError.self) { _ = try ProtectedResourceMetadata(data: data, requested: requested) }
    }

    /// An RFC 7591 registration response, for a client that asked for one loopback redirect URI.
    static func clientRegistration(_ data: Data) {
        guard let redirect = URL(string: "http://127.0.0.1/callback") else { return }
        expectOnly(SessionError.self) {
            _ = try RegisteredClient(registrationResponse: data, issuer: issuer, metadata: ClientMetadata(redirectURIs: [redirect]))
        }
    }

    /// A token endpoint's answer: a success body (first byte even) or an error, with the body
    /// as the OAuth error and the rest as a `WWW-Authenticate` challenge.
    static func tokenResponse(_ data: Data) {
        guard let mode = data.first else { return }
        let body = Data(data.dropFirst())
        expectOnly(SessionError.self) {
            if mode & 1 == 0 {
                let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
                let tokens = try TokenResponse(response: response, purpose: "fuzz")
                _ = tokens.sessionTokens(receivedAt: clock.now(), requestedScopes: ["openid"], subject: nil)
            } else {
                let challenge = String(decoding: body, as: UTF8.self)
                let response = HTTPResponse(status: 401, headers: ["WWW-Authenticate": challenge], body: body)
                throw ProviderExchange.statusError(response, process: .userInfo, purpose: "fuzz")
            }
        }
    }

    /// A pushed authorization request's answer (RFC 9126 §2.2), by status 201, 200 or 400.
    static func pushedAuthorization(_ data: Data) {
        guard let mode = data.first else { return }
        let status = [201, 200, 400][Int(mode) % 3]
        let response = HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(data.dropFirst()))
        expectOnly(SessionError.self) { _ = try PushedAuthorization.reference(response) }
    }

    /// A server's DPoP nonce (`DPoP-Nonce`) and its `DPoP` challenge (`WWW-Authenticate`), the
    /// input split at its first newline: a nonce taken is never longer than the limit and never
    /// holds a byte outside NQCHAR, whatever came.
    static func dpopNonce(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if let nonce = DPoPNonce.parse(parts[0]) {
            guard nonce.utf8.count <= 512, nonce.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }) else {
                fatalError("a nonce outside NQCHAR was taken")
            }
        }
        if parts.count > 1 { _ = OAuthErrorResponse(challenge: parts[1], scheme: "DPoP") }
        _ = OAuthErrorResponse(challenge: text, scheme: "DPoP")
    }

    /// A device authorization response (RFC 8628 §3.2): what is taken can be shown as it is, and
    /// leaves time for a poll at the provider's interval before the codes expire.
    static func deviceAuthorization(_ data: Data) {
        let now = clock.now()
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: data)
        expectOnly(SessionError.self) {
            let authorization = try DeviceAuthorization(response: response, scopes: ["openid"], now: now)
            guard DeviceAuthorization.isDisplayable(authorization.userCode), URLRules.isSecureEndpoint(authorization.verificationURI),
                  authorization.interval >= 1, now.addingTimeInterval(authorization.interval) < authorization.expiresAt else {
                fatalError("a device authorization was taken that cannot be shown or polled")
            }
        }
    }

    /// The message the `jws` target's keys sign for the `jwks` target.
    private static let message = "the fuzz target's message"

    /// `message` signed by each of the `jws` target's keys, made once per run; kept as byte
    /// arrays, since a `Data` kept in a static is one LeakSanitizer cannot follow.
    private static let signatures: [(JWSAlgorithm, [UInt8])] = keys.map { key in
        guard let signature = try? key.signature(of: Data(message.utf8)) else { fatalError("signing failed") }
        return (key.algorithm, [UInt8](signature))
    }

    /// A provider's JWK Set (RFC 7517): every key that fits an algorithm goes through the key
    /// policy and the crypto library's import to check a signature the target made with a key of
    /// its own. No fuzzed key is that key, so a signature taken is a forgery accepted.
    static func jwks(_ data: Data) {
        expectOnly(SessionError.self) {
            let set = try JSONWebKeySet(data: data)
            for (algorithm, signature) in signatures {
                for key in set.candidates(for: algorithm) {
                    let taken: Bool
                    do {
                        taken = try PlatformCrypto.verify(algorithm, key: key, message: Data(message.utf8), signature: Data(signature))
                    } catch is SessionError {
                        continue
                    }
                    if taken { fatalError("a signature was taken with a key that did not make it") }
                }
            }
        }
    }

    /// A redirect URL checked against a pending request, by the core and by the loopback page.
    static func authorizationResponse(_ data: Data) {
        guard let url = URL(string: String(decoding: data, as: UTF8.self)) else { return }
        expectOnly(SessionError.self) {
            _ = AuthorizationRequest.isResponse(url, to: request.redirectURI)
            _ = RedirectPage.html(for: RedirectPage.problem(with: url, authorizationURL: request.url))
            try request.validateResponse(url)
        }
    }

    /// Permission-center answers: a read, a write, and a refusal, with the status from the first byte.
    static func permissions(_ data: Data) {
        guard let mode = data.first else { return }
        let body = Data(data.dropFirst())
        let status = [200, 201, 400, 401, 403, 404, 500][Int(mode) % 7]
        expectOnly(SessionError.self) {
            _ = try? PermissionCenterReply.write(HTTPResponse(status: status, body: body))
            _ = try PermissionCenterReply.read(HTTPResponse(status: status, body: body))
        }
    }

    /// A session file's contents.
    static func sessionFile(_ data: Data) {
        let store = FileTokenStore(fileURL: URL(fileURLWithPath: "/nonexistent/fuzz.json"), configuration: configuration)
        expectOnly(SessionError.self) {
            _ = try store.decode(data)
        }
    }

    /// A client's key file: PEM text (first byte even) or PKCS #8 DER (odd), through the reader,
    /// the crypto library's import, the RSA policy and the key's self-check.
    static func privateKey(_ data: Data) {
        guard let mode = data.first else { return }
        expectOnly(SessionError.self) {
            if mode & 1 == 0 {
                _ = try ClientSigningKey(pem: String(decoding: data.dropFirst(), as: UTF8.self))
            } else {
                _ = try ClientSigningKey(pkcs8DER: Data(data.dropFirst()))
            }
        }
    }
}

import Foundation
import SessionCore
import SessionTesting
import XCTest

/// LocalProvider checks a `private_key_jwt` client assertion as strictly as a real server
/// (RFC 7523 §3, OpenID Connect Core §9), or the end-to-end tests of the client prove nothing.
/// Each request asks to refresh an unknown token: an accepted client gets `invalid_grant` (400),
/// a refused one `invalid_client` (401).
final class ClientAssertionCheckTests: XCTestCase {
    private var provider: LocalProvider!
    private var key: SigningKey!
    private let clock = ManualClock()
    private let transport = CurlTransport(timeout: 5)
    private static let jwtBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    override func setUpWithError() throws {
        key = try SigningKey(algorithm: .es256, keyID: "svc-key")
        let registered = try ClientSigningKey(pem: try key.pkcs8PEM(), keyID: "svc-key")
        provider = try LocalProvider(clock: clock) { options in
            options.clients = [LocalProvider.Client(id: "svc", redirectURIs: [URL(string: "http://127.0.0.1/cb")!],
                                                    authentication: .privateKeyJWT(registered))]
        }
    }

    override func tearDown() {
        provider.stop()
    }

    private var now: Int { Int(clock.now().timeIntervalSince1970) }

    private func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any?] = ["iss": "svc", "sub": "svc", "aud": provider.url(of: .token).absoluteString,
                                      "jti": UUID().uuidString, "iat": now, "exp": now + 60]
        claims.merge(changes) { _, new in new }
        return claims.compactMapValues { $0 }
    }

    /// The provider's answer to a refresh authenticated by `assertion`: its status and `error`.
    private func send(_ assertion: String?, type: String? = jwtBearer, extra: [(String, String)] = [("client_id", "svc")]) async throws -> (Int, String?) {
        var form = [("grant_type", "refresh_token"), ("refresh_token", "unknown")] + extra
        if let assertion { form.append(("client_assertion", assertion)) }
        if let type { form.append(("client_assertion_type", type)) }
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        let response = try await transport.send(HTTPRequest(method: "POST", url: provider.url(of: .token),
                                                            headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                            body: Data(body.utf8), followsRedirects: false))
        let answer = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return (response.status, answer?["error"] as? String)
    }

    private func assertAccepted(_ assertion: String?, type: String? = jwtBearer, extra: [(String, String)] = [("client_id", "svc")],
                                file: StaticString = #filePath, line: UInt = #line) async throws {
        let (status, error) = try await send(assertion, type: type, extra: extra)
        XCTAssertEqual(status, 400, file: file, line: line)
        XCTAssertEqual(error, "invalid_grant", "the client was authenticated", file: file, line: line)
    }

    private func assertRefused(_ assertion: String?, type: String? = jwtBearer, extra: [(String, String)] = [("client_id", "svc")],
                               _ why: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let (status, error) = try await send(assertion, type: type, extra: extra)
        XCTAssertEqual(status, 401, why, file: file, line: line)
        XCTAssertEqual(error, "invalid_client", why, file: file, line: line)
    }

    func testAValidAssertionAuthenticatesOnceAndOnlyOnce() async throws {
        let assertion = try key.sign(claims: claims())
        try await assertAccepted(assertion)
        try await assertRefused(assertion, "the same jti again is a replay")
        try await assertAccepted(try key.sign(claims: claims(["aud": ["https://elsewhere.example", provider.url(of: .token).absoluteString]])))
        // client_id is optional: the subject names the client.
        try await assertAccepted(try key.sign(claims: claims()), extra: [])
    }

    func testEachClaimIsChecked() async throws {
        let refusals: [([String: Any?], String)] = [
            (["exp": now - 1], "expired"),
            (["exp": now + 3600], "valid for an hour"),
            (["exp": nil], "no exp"),
            (["exp": "soon"], "exp not a number"),
            (["iat": now + 600], "issued in the future"),
            (["nbf": now + 600], "not yet valid"),
            (["aud": provider.issuer.absoluteString + "/other"], "neither the token endpoint nor the issuer"),
            (["aud": nil], "no aud"),
            (["iss": "other"], "another issuer"),
            (["sub": "other"], "another subject"),
            (["jti": nil], "no jti"),
            (["jti": ""], "an empty jti"),
        ]
        for (changes, why) in refusals {
            try await assertRefused(try key.sign(claims: claims(changes)), why)
        }
    }

    func testTheSignatureTypeAndMethodAreChecked() async throws {
        let other = try SigningKey(algorithm: .es256, keyID: "svc-key")
        try await assertRefused(try other.sign(claims: claims()), "signed by a key that is not registered")
        try await assertRefused(try key.sign(claims: claims(), header: ["alg": "RS256"]), "an algorithm the key is not for")
        try await assertRefused(try key.sign(claims: claims(), header: ["kid": "old-key"]), "naming another key")
        try await assertRefused(try key.sign(claims: claims(), header: ["crit": ["exp"]]), "a critical header")
        let unsigned = try key.sign(claims: claims()).split(separator: ".").prefix(2).joined(separator: ".") + "."
        try await assertRefused(unsigned, "no signature")
        try await assertRefused("not-a-jwt", "not a JWS")
        try await assertRefused(try key.sign(claims: claims()), type: "urn:ietf:params:oauth:client-assertion-type:saml2-bearer", "another type")
        try await assertRefused(try key.sign(claims: claims()), type: nil, "no type")
        try await assertRefused(nil, "a type without an assertion")
        try await assertRefused(try key.sign(claims: claims()), extra: [("client_id", "svc"), ("client_secret", "x")], "two methods at once")
        try await assertRefused(nil, type: nil, "no authentication at all")
    }
}

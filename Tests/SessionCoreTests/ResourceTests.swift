import ClientTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTP
import SessionCore
import SessionTesting
import XCTest

/// UserInfo (OIDC Core §5.3) and the hook resource APIs build on (the permission center is
/// SessionPermissionsTests'), against LocalProvider; a body the provider would not send is
/// injected as its answer.
final class ResourceTests: XCTestCase {
    private func signedIn() async throws -> (LocalHarness, SessionTokens) {
        let harness = try makeLocalHarness()
        return (harness, try await harness.client.signIn(scopes: ["openid", "profile", "email"], agent: HeadlessUserAgent()))
    }

    private static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    func testUserInfoHasTypedFieldsAndEveryRawClaim() async throws {
        let (harness, tokens) = try await signedIn()
        let info = try await harness.client.userInfo()
        XCTAssertEqual(info.sub, LocalProvider.User.erika.subject)
        XCTAssertEqual(info.email, LocalProvider.User.erika.email)
        XCTAssertEqual(info.emailVerified, true)
        XCTAssertEqual(info.givenName, "Erika")
        XCTAssertEqual(info.claims["birthdate"], .string("1964-08-12"))
        XCTAssertEqual(harness.provider.requests(to: .userInfo).last?.authorization, "Bearer \(tokens.accessToken)")
    }

    /// OpenID Connect's standard claims (Core §5.1) are typed; a provider's own stay in `claims`.
    func testUserInfoHasTheStandardClaimsTyped() async throws {
        let (harness, tokens) = try await signedIn()
        let body: [String: Any] = [
            "sub": try XCTUnwrap(tokens.subject), "name": "Erika Mustermann", "given_name": "Erika", "family_name": "Mustermann",
            "middle_name": "M", "nickname": "Eri", "preferred_username": "erika.m", "profile": "https://id.example/erika",
            "picture": "https://id.example/erika.png", "website": "not a url at all", "email": "e@example.com",
            "email_verified": false, "gender": "female", "birthdate": "1964", "zoneinfo": "Europe/Berlin", "locale": "de-DE",
            "phone_number": "+49 30 1234", "phone_number_verified": true, "updated_at": 1_700_000_000,
            "address": ["formatted": "Hauptstr. 1\n10115 Berlin", "region": "Berlin", "country": "DE", "postal_code": "10115"],
            "shipping_address": ["recipient": "Erika", "locality": "Berlin"], "custom_claim": ["nested": 1],
        ]
        harness.provider.inject(.status(200, body: try Self.json(body)), at: .userInfo)
        let info = try await harness.client.userInfo()
        XCTAssertEqual(info.name, "Erika Mustermann")
        XCTAssertEqual(info.middleName, "M")
        XCTAssertEqual(info.nickname, "Eri")
        XCTAssertEqual(info.preferredUsername, "erika.m")
        XCTAssertEqual(info.profile?.absoluteString, "https://id.example/erika")
        XCTAssertEqual(info.picture?.absoluteString, "https://id.example/erika.png")
        XCTAssertNil(info.website, "not a URL: nil here")
        XCTAssertEqual(info.claims["website"], .string("not a url at all"), "and kept as sent")
        XCTAssertEqual(info.emailVerified, false)
        XCTAssertEqual(info.birthdate, "1964")
        XCTAssertEqual(info.zoneinfo, "Europe/Berlin")
        XCTAssertEqual(info.locale, "de-DE")
        XCTAssertEqual(info.phoneNumber, "+49 30 1234")
        XCTAssertEqual(info.phoneNumberVerified, true)
        XCTAssertEqual(info.updatedAt, Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(info.address?.region, "Berlin")
        XCTAssertEqual(info.address?.postalCode, "10115")
        XCTAssertEqual(info.address?.formatted, "Hauptstr. 1\n10115 Berlin")
        XCTAssertEqual(info.claims["custom_claim"], .object(["nested": .number(1)]))

        struct Shipping: Decodable, Equatable { let recipient: String; let locality: String }
        XCTAssertEqual(try info.claim("shipping_address", as: Shipping.self), Shipping(recipient: "Erika", locality: "Berlin"))
        XCTAssertNil(try info.claim("absent", as: Shipping.self))
        XCTAssertThrowsError(try info.claim("name", as: Shipping.self))

        for (name, wrong) in [("name", 1), ("phone_number_verified", "yes"), ("updated_at", "yesterday"), ("address", "Berlin"),
                              ("email_verified", "yes")] as [(String, Any)] {
            var broken = body
            broken[name] = wrong
            harness.provider.inject(.status(200, body: try Self.json(broken)), at: .userInfo)
            await assertSessionError(.invalidResponse, process: .userInfo) { try await harness.client.userInfo() }
        }
    }

    func testUserInfoForAnotherSubjectIsRejected() async throws {
        let (harness, _) = try await signedIn()
        harness.provider.inject(.status(200, body: #"{"sub":"someone-else"}"#), at: .userInfo)
        await assertSessionError(.userInfoSubjectMismatch, process: .userInfo) { try await harness.client.userInfo() }
    }

    func testUserInfoErrors() async throws {
        let (harness, tokens) = try await signedIn()
        // Refused again after the refresh an invalid_token answer prompts: the provider's error.
        harness.provider.inject(.status(401, headers: ["WWW-Authenticate": #"Bearer realm="op", error="invalid_token", error_description="expired""#]),
                                at: .userInfo, times: 2)
        let error = await assertSessionError(.invalidToken, process: .userInfo) { try await harness.client.userInfo() }
        XCTAssertEqual(error?.oauthErrorDescription, "expired")
        harness.provider.inject(.status(200, body: #"{"email":"no-sub@example.com"}"#), at: .userInfo)
        await assertSessionError(.invalidResponse, process: .userInfo) { try await harness.client.userInfo() }
        harness.provider.inject(.malformedBody, at: .userInfo)
        await assertSessionError(.invalidResponse, process: .userInfo) { try await harness.client.userInfo() }
        // An access token the provider revoked is refreshed once, and the call goes through.
        harness.provider.revoke(accessToken: tokens.accessToken)
        _ = try await harness.client.userInfo()
        XCTAssertNotEqual(harness.provider.requests(to: .userInfo).last?.authorization, "Bearer \(tokens.accessToken)")
    }

    func testABearerErrorAfterAnotherSchemesChallengeIsRead() async throws {
        let (harness, _) = try await signedIn()
        // Several challenges in one header (RFC 9110 §11.6.1): the Bearer one need not come first,
        // and a quoted value may hold an escaped quote and a comma.
        harness.provider.inject(.status(401, headers: ["WWW-Authenticate": #"Basic realm="a, \"b\"", Bearer error="invalid_token", error_description="expired, \"really\"""#]),
                                at: .userInfo, times: 2)
        let error = await assertSessionError(.invalidToken, process: .userInfo) { try await harness.client.userInfo() }
        XCTAssertEqual(error?.oauthErrorDescription, #"expired, "really""#)
        XCTAssertEqual(harness.provider.requests(to: .token).last?.parameters["grant_type"], "refresh_token",
                       "an invalid_token refusal is refreshed once")
    }

    func testUserInfoWithoutASessionIsNotAuthenticated() async throws {
        let harness = try makeLocalHarness()
        await assertSessionError(.notAuthenticated, process: .userInfo) { try await harness.client.userInfo() }
        XCTAssertTrue(harness.provider.requests(to: .userInfo).isEmpty)
    }

    func testUserInfoRefreshesAnExpiringTokenFirst() async throws {
        let (harness, tokens) = try await signedIn()
        harness.clock.advance(by: 3590)
        _ = try await harness.client.userInfo()
        let sent = try XCTUnwrap(harness.provider.requests(to: .userInfo).last?.authorization)
        XCTAssertNotEqual(sent, "Bearer \(tokens.accessToken)")
        XCTAssertEqual(harness.provider.requests(to: .token).last?.parameters["grant_type"], "refresh_token")
    }

    /// The hook resource APIs build on: fresh tokens first, the chosen bearer token, no other
    /// `Authorization` header, every failure in the caller's process. The resource server is a
    /// loopback server of the test's own.
    func testSendAuthorizedRefreshesFirstAndSendsOnlyTheChosenBearerToken() async throws {
        let (harness, _) = try await signedIn()
        let received = Locked<[[String]]>([])
        let api = try LoopbackHTTPServer { request in
            received.withLock { $0.append(request.headers.filter { $0.name.lowercased() == "authorization" }.map(\.value)) }
            return .respond(HTTPServerResponse(status: 204))
        }
        defer { api.stop() }
        harness.clock.advance(by: 3600)
        let request = HTTPRequest(method: "GET", url: api.baseURL.appendingPathComponent("items"), headers: ["authorization": "Bearer stale"])
        let (response, tokens) = try await harness.client.sendAuthorized(request, process: .userInfo, purpose: "items")
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2, "the expired access token was refreshed before the call")
        XCTAssertEqual(received.value.last, ["Bearer \(tokens.accessToken)"])

        _ = try await harness.client.sendAuthorized(request, process: .userInfo, purpose: "items") { $0.refreshToken ?? "" }
        XCTAssertEqual(received.value.last, ["Bearer \(tokens.refreshToken ?? "")"])

        await assertSessionError(.invalidConfiguration, process: .permissionWrite) {
            try await harness.client.sendAuthorized(request, process: .permissionWrite, purpose: "items") { _ in
                throw SessionError(.invalidConfiguration, process: .configuration, message: "no credential")
            }
        }
        XCTAssertEqual(received.value.count, 2, "nothing is sent without a credential")
    }

    /// A token never goes to a resource in the clear: http is refused unless the host is loopback,
    /// before anything is sent (the provider's own endpoint rule), for both hooks.
    func testATokenIsNeverAttachedToPlainHTTPOffLoopback() async throws {
        let (harness, tokens) = try await signedIn()
        let refreshesBefore = harness.provider.requests(to: .token).count
        harness.clock.advance(by: 3600)
        for url in ["http://api.example.com/items", "http://10.0.0.7/items", "HTTP://api.example.com:80/items"] {
            let plain = URL(string: url)!
            await assertSessionError(.invalidConfiguration, process: .userInfo) {
                _ = try await harness.client.sendAuthorized(HTTPRequest(method: "GET", url: plain), process: .userInfo, purpose: "items")
            }
            await assertSessionError(.invalidConfiguration, process: .authentication) {
                _ = try await harness.client.authorize(URLRequest(url: plain))
            }
        }
        XCTAssertEqual(harness.provider.requests(to: .token).count, refreshesBefore, "refused before any refresh")
        let secure = try await harness.client.authorize(URLRequest(url: URL(string: "https://api.example.com/items")!))
        XCTAssertNotEqual(secure.value(forHTTPHeaderField: "Authorization"), "Bearer \(tokens.accessToken)", "refreshed, then attached")
        let loopback = try await harness.client.authorize(URLRequest(url: URL(string: "http://127.0.0.1:8080/items")!))
        XCTAssertEqual(loopback.value(forHTTPHeaderField: "Authorization"), secure.value(forHTTPHeaderField: "Authorization"))
    }
}

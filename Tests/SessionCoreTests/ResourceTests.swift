import ClientTestSupport
import Foundation
import SessionCore
import SessionFacade
import SessionPermissions
import SessionTesting
import XCTest

/// UserInfo (OIDC Core §5.3) and the hook resource APIs build on (the permission center is
/// SessionPermissionsTests').
final class ResourceTests: XCTestCase {
    private func signedIn(flow: AuthFlow = .loginPermission) async throws -> (SessionClient, FakeProvider, SessionTokens) {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let tokens = try await client.signIn(scopes: flow.scopes(with: client.configuration), agent: provider)
        return (client, provider, tokens)
    }

    func testUserInfoHasTypedFieldsAndEveryRawClaim() async throws {
        let (client, provider, tokens) = try await signedIn()
        let info = try await client.userInfo()
        XCTAssertEqual(info.sub, FakeProvider.subject)
        XCTAssertEqual(info.email, "user@example.com")
        XCTAssertEqual(info.emailVerified, true)
        XCTAssertEqual(info.givenName, "Erika")
        XCTAssertEqual(info.address?.postalCode, "10115")
        XCTAssertEqual(info.claims["custom_claim"], .object(["nested": .number(1)]))
        XCTAssertEqual(provider.requests(to: "/userinfo").first?.headers["Authorization"], "Bearer \(tokens.accessToken)")
    }

    /// OpenID Connect's standard claims (Core §5.1) are typed; a provider's own stay in `claims`.
    func testUserInfoHasTheStandardClaimsTyped() async throws {
        let (client, provider, _) = try await signedIn()
        let body: [String: Any] = [
            "sub": FakeProvider.subject, "name": "Erika Mustermann", "given_name": "Erika", "family_name": "Mustermann",
            "middle_name": "M", "nickname": "Eri", "preferred_username": "erika.m", "profile": "https://id.example/erika",
            "picture": "https://id.example/erika.png", "website": "not a url at all", "email": "e@example.com",
            "email_verified": false, "gender": "female", "birthdate": "1964", "zoneinfo": "Europe/Berlin", "locale": "de-DE",
            "phone_number": "+49 30 1234", "phone_number_verified": true, "updated_at": 1_700_000_000,
            "address": ["formatted": "Hauptstr. 1\n10115 Berlin", "region": "Berlin", "country": "DE"],
            "shipping_address": ["recipient": "Erika", "locality": "Berlin"],
        ]
        let answer = FakeProvider.json(body)
        provider.edit { $0.handlers["/userinfo"] = { _ in answer } }
        let info = try await client.userInfo()
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
        XCTAssertEqual(info.address?.formatted, "Hauptstr. 1\n10115 Berlin")

        struct Shipping: Decodable, Equatable { let recipient: String; let locality: String }
        XCTAssertEqual(try info.claim("shipping_address", as: Shipping.self), Shipping(recipient: "Erika", locality: "Berlin"))
        XCTAssertNil(try info.claim("absent", as: Shipping.self))
        XCTAssertThrowsError(try info.claim("name", as: Shipping.self))

        for (name, wrong) in [("name", 1), ("phone_number_verified", "yes"), ("updated_at", "yesterday"), ("address", "Berlin")] as [(String, Any)] {
            var broken = body
            broken[name] = wrong
            let refusedAnswer = FakeProvider.json(broken)
            provider.edit { $0.handlers["/userinfo"] = { _ in refusedAnswer } }
            await assertSessionError(.invalidResponse, process: .userInfo) { try await client.userInfo() }
        }
    }

    func testUserInfoForAnotherSubjectIsRejected() async throws {
        let (client, provider, _) = try await signedIn()
        provider.edit { $0.userInfoSubject = "someone-else" }
        await assertSessionError(.userInfoSubjectMismatch, process: .userInfo) { try await client.userInfo() }
    }

    func testUserInfoErrors() async throws {
        let (client, provider, _) = try await signedIn()
        provider.edit { $0.handlers["/userinfo"] = { _ in
            HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer realm="op", error="invalid_token", error_description="expired""#])
        } }
        let error = await assertSessionError(.invalidToken, process: .userInfo) { try await client.userInfo() }
        XCTAssertEqual(error?.oauthErrorDescription, "expired")
        provider.edit { $0.handlers["/userinfo"] = { _ in FakeProvider.json(["email": "no-sub@example.com"]) } }
        await assertSessionError(.invalidResponse, process: .userInfo) { try await client.userInfo() }
        provider.edit { $0.handlers["/userinfo"] = { _ in FakeProvider.json(["sub": FakeProvider.subject, "email_verified": "yes"]) } }
        await assertSessionError(.invalidResponse, process: .userInfo) { try await client.userInfo() }
        provider.edit { $0.handlers["/userinfo"] = { _ in FakeProvider.json(["sub": FakeProvider.subject, "address": "Berlin"]) } }
        await assertSessionError(.invalidResponse, process: .userInfo) { try await client.userInfo() }
    }

    func testUserInfoWithoutASessionIsNotAuthenticated() async throws {
        let client = try makeClient(try FakeProvider())
        await assertSessionError(.notAuthenticated, process: .userInfo) { try await client.userInfo() }
    }

    func testUserInfoRefreshesAnExpiringTokenFirst() async throws {
        let (client, provider, tokens) = try await signedIn()
        provider.clock.advance(by: 3590)
        _ = try await client.userInfo()
        let sent = provider.requests(to: "/userinfo").last?.headers["Authorization"]
        XCTAssertNotEqual(sent, "Bearer \(tokens.accessToken)")
    }

    /// The hook resource APIs build on: fresh tokens first, the chosen bearer token, no other
    /// `Authorization` header, every failure in the caller's process.
    func testSendAuthorizedRefreshesFirstAndSendsOnlyTheChosenBearerToken() async throws {
        let (client, provider, _) = try await signedIn()
        provider.edit { $0.handlers["/items"] = { _ in HTTPResponse(status: 204) } }
        provider.clock.advance(by: 3600)
        let request = HTTPRequest(method: "GET", url: URL(string: "https://api.example/items")!, headers: ["authorization": "Bearer stale"])
        let (response, tokens) = try await client.sendAuthorized(request, process: .userInfo, purpose: "items")
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(provider.requests(to: "/token").count, 2, "the expired access token was refreshed before the call")
        let sent = try XCTUnwrap(provider.requests(to: "/items").last)
        XCTAssertEqual(sent.headers.filter { $0.key.lowercased() == "authorization" }, ["Authorization": "Bearer \(tokens.accessToken)"])

        _ = try await client.sendAuthorized(request, process: .userInfo, purpose: "items") { $0.refreshToken ?? "" }
        XCTAssertEqual(provider.requests(to: "/items").last?.headers["Authorization"], "Bearer \(tokens.refreshToken ?? "")")

        await assertSessionError(.invalidConfiguration, process: .permissionWrite) {
            try await client.sendAuthorized(request, process: .permissionWrite, purpose: "items") { _ in
                throw SessionError(.invalidConfiguration, process: .configuration, message: "no credential")
            }
        }
        XCTAssertEqual(provider.requests(to: "/items").count, 2, "nothing is sent without a credential")
    }
}

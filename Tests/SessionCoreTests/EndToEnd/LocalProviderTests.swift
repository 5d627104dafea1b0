import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The LocalProvider's protocol rules, checked with raw HTTP requests.
final class LocalProviderTests: XCTestCase {
    private var provider: LocalProvider!
    private let transport = CurlTransport(timeout: 5)
    private let verifier = String(repeating: "v", count: 43)
    private let redirect = "com.example.sessiondemo:/callback"

    override func setUpWithError() throws {
        var options = LocalProvider.Options()
        options.clients.append(LocalProvider.Client(id: "other", redirectURIs: [URL(string: "com.example.sessiondemo:/callback")!]))
        provider = try LocalProvider(options: options)
    }

    override func tearDown() {
        provider.stop()
    }

    private func authorize(_ changes: [String: String?] = [:]) async throws -> HTTPResponse {
        var parameters: [String: String?] = [
            "response_type": "code", "client_id": "session-demo", "redirect_uri": redirect, "scope": "openid",
            "state": "s1", "code_challenge": try PKCE.challenge(for: verifier), "code_challenge_method": "S256",
        ]
        parameters.merge(changes) { _, new in new }
        var components = URLComponents(url: provider.url(of: .authorization), resolvingAgainstBaseURL: false)!
        components.queryItems = parameters.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
        return try await transport.send(HTTPRequest(method: "GET", url: components.url!, followsRedirects: false))
    }

    private func redirectParameters(_ response: HTTPResponse) throws -> [String: String] {
        XCTAssertEqual(response.status, 302)
        let location = try XCTUnwrap(response.header("Location"))
        XCTAssertTrue(location.hasPrefix(redirect + "?"), location)
        let items = URLComponents(string: location)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    private func code() async throws -> String {
        let response = try await authorize()
        return try XCTUnwrap(try redirectParameters(response)["code"])
    }

    private func exchange(_ code: String, clientID: String = "session-demo", redirectURI: String? = nil,
                          verifier: String? = nil) async throws -> (Int, [String: Any]) {
        let form = [("grant_type", "authorization_code"), ("code", code), ("client_id", clientID),
                    ("redirect_uri", redirectURI ?? redirect), ("code_verifier", verifier ?? self.verifier)]
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        let response = try await transport.send(HTTPRequest(method: "POST", url: provider.url(of: .token),
                                                            headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                            body: Data(body.utf8), followsRedirects: false))
        return (response.status, (try JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    func testTheRedirectCarriesCodeStateAndIssuer() async throws {
        let response = try await authorize()
        let parameters = try redirectParameters(response)
        XCTAssertEqual(parameters["state"], "s1")
        XCTAssertEqual(parameters["iss"], provider.issuer.absoluteString)
        XCTAssertNotNil(parameters["code"])
    }

    func testACodeWorksOnceAndItsReplayRevokesWhatItGave() async throws {
        let code = try await code()
        let (status, body) = try await exchange(code)
        XCTAssertEqual(status, 200)
        let accessToken = try XCTUnwrap(body["access_token"] as? String)
        XCTAssertNotNil(body["id_token"])

        let (replayStatus, replay) = try await exchange(code)
        XCTAssertEqual(replayStatus, 400)
        XCTAssertEqual(replay["error"] as? String, "invalid_grant")
        XCTAssertFalse(provider.isActive(accessToken: accessToken))
    }

    func testACodeIsBoundToClientRedirectURIAndChallenge() async throws {
        let mismatches: [(String, String?, String?)] = [
            ("other", nil, nil),
            ("session-demo", "com.example.sessiondemo:/other", nil),
            ("session-demo", nil, String(repeating: "w", count: 43)),
        ]
        for (clientID, redirectURI, verifier) in mismatches {
            let code = try await code()
            let (status, body) = try await exchange(code, clientID: clientID, redirectURI: redirectURI, verifier: verifier)
            XCTAssertEqual(status, 400)
            XCTAssertEqual(body["error"] as? String, "invalid_grant", "\(clientID) \(redirectURI ?? "") \(verifier ?? "")")
        }
    }

    func testPKCEIsRequiredAndOnlyS256() async throws {
        for change: [String: String?] in [["code_challenge": nil], ["code_challenge_method": "plain"], ["code_challenge_method": nil]] {
            let response = try await authorize(change)
            let parameters = try redirectParameters(response)
            XCTAssertEqual(parameters["error"], "invalid_request", "\(change)")
            XCTAssertNil(parameters["code"])
        }
    }

    func testUnknownClientsAndRedirectURIsAreNeverRedirectedTo() async throws {
        for change: [String: String?] in [["client_id": "nobody"], ["redirect_uri": "https://attacker.example/cb"], ["redirect_uri": nil]] {
            let response = try await authorize(change)
            XCTAssertEqual(response.status, 400, "\(change)")
            XCTAssertNil(response.header("Location"))
        }
    }

    func testAnUnknownScopeIsRefused() async throws {
        let response = try await authorize(["scope": "openid admin"])
        XCTAssertEqual(try redirectParameters(response)["error"], "invalid_scope")
    }

    func testTheRequestLogRedactsSecrets() async throws {
        let code = try await code()
        _ = try await exchange(code)
        let described = provider.requestLog.map(\.description).joined(separator: "\n")
        XCTAssertFalse(described.contains(verifier))
        XCTAssertTrue(described.contains("code_verifier=<redacted>"))
        XCTAssertEqual(provider.requestLog.map(\.endpoint), [.authorization, .token])
    }
}

import Foundation
import LoopbackHTTP
import SessionCore
import SessionTesting
import SessionWebApp
import XCTest

/// A web application on SessionWebApp against idpyoidc's end-session endpoint and its back-channel
/// logout (Tests/Interop/idpyoidc/provider.py, started by run-interop.sh): idpyoidc makes the logout
/// tokens and POSTs them to the application's /backchannel-logout, which the loopback server here
/// serves on the origin the provider has registered. Sessions are DPoP-bound: idpyoidc takes no
/// token request without a proof.
final class IdpyOIDCBackChannelLogoutTests: XCTestCase {
    private var environment: IdpyOIDCEnvironment!
    private var origin: URL!
    private var layer: WebSessions!
    private var server: LoopbackHTTPServer!
    /// What the application's back-channel endpoint answered, in order.
    private let deliveries = Locked<[WebBackChannelLogout]>([])

    override func setUp() async throws {
        environment = try IdpyOIDCEnvironment.load()
        origin = try InteropVariable.url("INTEROP_IDPY_WEB_ORIGIN", file: #filePath, line: #line)
        let port = try XCTUnwrap(UInt16(try InteropVariable.string("INTEROP_IDPY_WEB_PORT", file: #filePath, line: #line)))
        let configuration = try SessionConfiguration(issuer: environment.issuer, clientID: "interop-web", redirectURI: origin.appendingPathComponent("callback"),
                                                     scopes: ["profile", "email"], clientAuthentication: .clientSecretBasic(environment.clientSecret),
                                                     postLogoutRedirectURI: origin.appendingPathComponent("signed-out"), dpop: .whenSupported)
        let layer = try WebSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                    store: InMemoryWebSessionStore(), pending: .sealed(try AuthorizationSealingKey.generate()),
                                    options: WebSessionOptions(appOrigin: origin))
        self.layer = layer
        let origin = origin!, deliveries = deliveries
        server = try LoopbackHTTPServer(host: .ipv4, port: port) { request in
            guard request.method == "POST", request.path == "/backchannel-logout" else { return .respond(HTTPServerResponse(status: 404)) }
            // The server's handler runs on a connection thread of its own, so it may wait for the layer.
            let answer = Locked<WebBackChannelLogout?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                let url = origin.appendingPathComponent("backchannel-logout")
                let logout = await layer.backChannelLogout(WebRequest(method: "POST", url: url, headers: request.headers), body: request.body)
                answer.withLock { $0 = logout }
                done.signal()
            }
            guard done.wait(timeout: .now() + 30) == .success, let logout = answer.value else { return .respond(HTTPServerResponse(status: 503)) }
            deliveries.withLock { $0.append(logout) }
            return .respond(HTTPServerResponse(status: logout.response.status, headers: logout.response.headers))
        }
    }

    override func tearDown() async throws {
        server?.stop()
        await server?.waitUntilStopped()
    }

    /// A browser: the provider's cookies and the application's, each sent back where it came from.
    private struct Browser {
        var provider = CookieJar()
        var app: [String: String] = [:]

        mutating func receive(_ response: WebResponse) {
            for line in response.setCookies {
                let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                app[String(pair[0])] = line.contains("Max-Age=0") ? nil : String(pair.count > 1 ? pair[1] : "")
            }
        }

        func request(_ url: URL, method: String = "GET", origin: URL? = nil) -> WebRequest {
            WebRequest(method: method, url: url, cookie: app.isEmpty ? nil : app.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
                       origin: origin.map { "\($0.scheme!)://\($0.host!):\($0.port!)" })
        }

        /// A GET at the provider, its cookies kept.
        mutating func get(_ url: URL) async throws -> HTTPResponse {
            var headers = ["Accept": "text/html"]
            headers["Cookie"] = provider.header
            let response = try await CurlTransport(timeout: 15).send(HTTPRequest(method: "GET", url: url, headers: headers, followsRedirects: false))
            if let setCookie = response.header("Set-Cookie") { provider.store(setCookie) }
            return response
        }

        /// Follows the provider's redirects from `url` until one leads to `app`, and returns it.
        mutating func follow(_ url: URL, to app: URL) async throws -> URL {
            var next = url
            for _ in 0..<8 {
                let response = try await get(next)
                guard (300..<400).contains(response.status), let location = response.header("Location"),
                      let target = URL(string: location, relativeTo: next)?.absoluteURL else {
                    throw SessionError(.unexpectedResponse, process: .authentication,
                                       message: "the provider answered \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
                }
                if target.absoluteString.hasPrefix(app.absoluteString) { return target }
                next = target
            }
            throw SessionError(.unexpectedResponse, process: .authentication, message: "no way back to the application")
        }
    }

    private func signIn(_ browser: inout Browser) async throws -> WebSession {
        let begun = try await layer.beginSignIn()
        browser.receive(begun)
        let callback = try await browser.follow(try XCTUnwrap(begun.location), to: origin)
        let signIn = try await layer.completeSignIn(browser.request(callback))
        browser.receive(signIn.response)
        return signIn.session
    }

    func testTheProvidersLogoutEndsTheSessionThroughTheBackChannel() async throws {
        var browser = Browser()
        let session = try await signIn(&browser)
        XCTAssertEqual(session.subject, environment.subject)
        XCTAssertNotNil(session.providerSessionID, "idpyoidc's ID token names its session (sid)")
        let live = try await layer.session(for: browser.request(origin))
        XCTAssertEqual(live?.id, session.id)

        // The user logs out at the provider itself (its own page, with its cookie).
        let logout = try await browser.get(environment.issuer.appendingPathComponent("logout"))
        XCTAssertEqual(logout.status, 200, String(decoding: logout.body, as: UTF8.self))

        let delivered = deliveries.value
        XCTAssertEqual(delivered.count, 1, "idpyoidc POSTed one logout token")
        XCTAssertNil(delivered.first?.refusal, "idpyoidc's logout token passes every rule")
        XCTAssertEqual(delivered.first?.response.status, 200)
        XCTAssertEqual(delivered.first?.ended.map(\.id), [session.id])
        let after = try await layer.session(for: browser.request(origin))
        XCTAssertNil(after, "the session ended on the provider's word")
    }

    /// idpyoidc 5.0.0's end-session endpoint fails on a request that carries `client_id` (which
    /// RP-Initiated Logout 1.0 §2 allows beside `id_token_hint`, and the OP must then check): its
    /// client authentication takes `client_id` for the "none" method and the endpoint then reads an
    /// access token that method does not give (a 400, "'token'"). The session here has ended all the
    /// same; the test holds the refusal, so a release of idpyoidc that takes the request fails it and
    /// tells us. The user's logging out at the provider then reaches the application by the back
    /// channel, for a session already ended.
    func testSigningOutAtTheProviderEndsTheSessionHereThoughIdpyOIDCRefusesClientID() async throws {
        var browser = Browser()
        let session = try await signIn(&browser)
        let signOut = try await layer.signOutAtProvider(browser.request(origin.appendingPathComponent("logout-provider"), method: "POST", origin: origin),
                                                        csrfToken: session.csrfToken)
        browser.receive(signOut.response)
        XCTAssertEqual(signOut.ended?.id, session.id, "the session here ends first, whatever the provider says")
        let endSession = try XCTUnwrap(signOut.response.location, "a redirect to idpyoidc's end-session endpoint")
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(url: endSession, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        XCTAssertEqual(query["client_id"], "interop-web")
        XCTAssertNotNil(query["id_token_hint"])

        let answer = try await browser.get(endSession)
        XCTAssertEqual(answer.status, 400)
        XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("'token'"), String(decoding: answer.body, as: UTF8.self))
        let after = try await layer.session(for: browser.request(origin))
        XCTAssertNil(after)

        let logout = try await browser.get(environment.issuer.appendingPathComponent("logout"))
        XCTAssertEqual(logout.status, 200)
        let delivered = deliveries.value
        XCTAssertEqual(delivered.map(\.response.status), [200], "a valid token for a session already ended is still taken")
        XCTAssertEqual(delivered.first?.ended.count, 0)
    }
}

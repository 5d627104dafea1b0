import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The Device Authorization Grant (RFC 8628) against LocalProvider: the user approves on another
/// device while the client polls, never faster than asked, and stops at a decision, the codes'
/// expiry or cancellation. The shared ManualClock turns the polling interval into clock time.
final class DeviceSignInTests: XCTestCase {
    private func harness(authentication: ClientAuthentication = .none,
                         edit: @escaping (inout LocalProvider.Options) -> Void = { _ in }) throws -> LocalHarness {
        try makeLocalHarness { options in
            options.clients = [LocalProvider.Client(id: "tv-app", redirectURIs: [URL(string: "http://127.0.0.1/callback")!],
                                                    authentication: authentication)]
            edit(&options)
        }
    }

    private func client(_ harness: LocalHarness, authentication: ClientAuthentication = .none) throws -> SessionClient {
        let configuration = try SessionConfiguration(issuer: harness.provider.issuer, clientID: "tv-app",
                                                     redirectURI: URL(string: "http://127.0.0.1/callback")!, clientAuthentication: authentication)
        return SessionClient(configuration: configuration, store: harness.store, transport: CurlTransport(timeout: 5), clock: harness.clock)
    }

    func testTheUserApprovesWhileTheClientPollsAtTheInterval() async throws {
        let harness = try harness { $0.approvesDeviceSignInsAfterPolls = 3 }
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization(scopes: ["openid", "profile"])
        XCTAssertEqual(authorization.userCode.count, 9)
        XCTAssertEqual(authorization.verificationURI.path, "/device")
        XCTAssertEqual(authorization.verificationURIComplete?.query, "user_code=\(authorization.userCode)")
        XCTAssertEqual(authorization.interval, 5)
        XCTAssertFalse(authorization.description.contains(authorization.deviceCode), "the device code is a secret")
        let started = harness.clock.now()
        let tokens = try await client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject, "the ID token was validated, without a nonce")
        XCTAssertEqual(harness.stored, tokens)
        XCTAssertEqual(harness.provider.requests(to: .token).count, 3, "two answered authorization_pending")
        XCTAssertEqual(harness.clock.now().timeIntervalSince(started), 15, "one interval before each poll, never less")
    }

    func testTheIDTokensAuthTimeIsWhenTheUserApprovedNotWhenTheClientPolled() async throws {
        let harness = try harness()
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization(scopes: ["openid"])
        let approved = harness.clock.now()
        XCTAssertTrue(harness.provider.approveDeviceSignIn(userCode: authorization.userCode))
        let tokens = try await client.completeDeviceAuthorization(authorization)
        let claims = try idTokenClaims(try XCTUnwrap(tokens.idToken))
        XCTAssertEqual(claims["auth_time"] as? Int, Int(approved.timeIntervalSince1970), "the approval's time (OIDC Core §2)")
        XCTAssertEqual(claims["iat"] as? Int, Int(approved.timeIntervalSince1970) + 5, "issued at the poll, an interval later")
    }

    private func idTokenClaims(_ token: String) throws -> [String: Any] {
        let payload = try XCTUnwrap(token.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) })
        return try XCTUnwrap(JSONSerialization.jsonObject(with: payload) as? [String: Any])
    }

    func testWhatTheUserIsShownMustBeSafeToShow() async throws {
        let harness = try harness()
        let client = try client(harness)
        let base = #""device_code":"dc","expires_in":600,"interval":5"#
        let hostile = [
            // A link that runs script, a plain-http page an attacker on the path can swap.
            #"{\#(base),"user_code":"ABCD-EFGH","verification_uri":"javascript://example.com/%0aalert(1)"}"#,
            #"{\#(base),"user_code":"ABCD-EFGH","verification_uri":"http://login.example.com/device"}"#,
            #"{\#(base),"user_code":"ABCD-EFGH","verification_uri":"https://login.example.com/device","verification_uri_complete":"http://evil.example/"}"#,
            // A code that rewrites the terminal line, or reads backwards (U+202E).
            #"{\#(base),"user_code":"ABCD\nOpen https://evil.example","verification_uri":"https://login.example.com/device"}"#,
            #"{\#(base),"user_code":"ABCD\u202EHGFE","verification_uri":"https://login.example.com/device"}"#,
            #"{\#(base),"user_code":"\u001b[2JABCD","verification_uri":"https://login.example.com/device"}"#,
        ]
        for body in hostile {
            harness.provider.inject(.status(200, body: body), at: .deviceAuthorization, times: 1)
            do {
                let authorization = try await client.beginDeviceAuthorization()
                XCTFail("shown to the user: \(authorization.userCode.debugDescription) at \(authorization.verificationURI)")
            } catch let error as SessionError {
                XCTAssertEqual(error.code, .invalidResponse, body)
            }
        }
        harness.provider.inject(.status(200, body: #"{\#(base),"user_code":"ÄÖÜ-ß123","verification_uri":"https://login.example.com/device"}"#),
                                at: .deviceAuthorization, times: 1)
        let printable = try await client.beginDeviceAuthorization()
        XCTAssertEqual(printable.userCode, "ÄÖÜ-ß123", "letters beyond ASCII are printable")
    }

    /// RFC 8628's drafts named the page `verification_url`, and providers written to them (Google's
    /// device endpoint among them) still do: the page is taken under that name, with the same
    /// checks, when `verification_uri` is absent.
    func testThePageUnderItsDraftNameIsTakenWithTheSameChecks() async throws {
        let harness = try harness()
        let client = try client(harness)
        let base = #""device_code":"dc","user_code":"GQVQ-JKEC","expires_in":1800,"interval":5"#
        harness.provider.inject(.status(200, body: #"{\#(base),"verification_url":"https://login.example.com/device"}"#),
                                at: .deviceAuthorization, times: 1)
        let drafted = try await client.beginDeviceAuthorization()
        XCTAssertEqual(drafted.verificationURI.absoluteString, "https://login.example.com/device")

        harness.provider.inject(.status(200, body: #"{\#(base),"verification_uri":"https://login.example.com/device","verification_url":"https://other.example/"}"#),
                                at: .deviceAuthorization, times: 1)
        let both = try await client.beginDeviceAuthorization()
        XCTAssertEqual(both.verificationURI.absoluteString, "https://login.example.com/device", "the RFC's name wins")

        for page in ["http://login.example.com/device", "javascript://example.com/%0aalert(1)"] {
            harness.provider.inject(.status(200, body: #"{\#(base),"verification_url":"\#(page)"}"#), at: .deviceAuthorization, times: 1)
            await assertSessionError(.invalidResponse, process: .authentication) { try await client.beginDeviceAuthorization() }
        }
    }

    func testSlowDownLengthensTheIntervalForTheRestOfTheSignIn() async throws {
        let harness = try harness()
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization()
        harness.provider.approveDeviceSignIn(userCode: authorization.userCode)
        harness.provider.inject(.status(400, body: #"{"error":"slow_down"}"#), at: .token, times: 2)
        let started = harness.clock.now()
        _ = try await client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(harness.clock.now().timeIntervalSince(started), 5 + 10 + 15)
    }

    /// RFC 8628 §3.5: the client waits at least the interval the provider asked for, however
    /// long. A provider that answers `slow_down` to a poll that came sooner, and lengthens its
    /// own interval as it does, would otherwise never hear a poll it takes.
    func testALongIntervalIsWaitedInFullSoAProviderThatCountsItSignsTheUserIn() async throws {
        let harness = try harness { options in
            options.devicePollingInterval = 90
            options.deviceCodeLifetime = 1_800
            options.approvesDeviceSignInsAfterPolls = 2
        }
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization(scopes: ["openid"])
        XCTAssertEqual(authorization.interval, 90)
        let started = harness.clock.now()
        let tokens = try await client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2, "no poll came sooner than asked, so none was slow_down")
        XCTAssertEqual(harness.clock.now().timeIntervalSince(started), 180)
    }

    /// An interval no shorter than the codes' lifetime leaves no poll before they expire: the
    /// response is refused before the user is shown a code that cannot work.
    func testAnIntervalThatOutlastsTheCodesIsRefusedBeforeTheUserSeesThem() async throws {
        let harness = try harness()
        let client = try client(harness)
        harness.provider.inject(.status(200, body: #"{"device_code":"dc","user_code":"ABCD-EFGH","verification_uri":"https://login.example.com/device","expires_in":300,"interval":300}"#),
                                at: .deviceAuthorization, times: 1)
        await assertSessionError(.invalidResponse, process: .authentication) { try await client.beginDeviceAuthorization() }
    }

    /// A provider that answers slow_down for ever cannot keep the client polling past the
    /// codes' expiry.
    func testSlowDownForEverEndsAtTheExpiry() async throws {
        let harness = try harness { $0.deviceCodeLifetime = 120 }
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization()
        harness.provider.inject(.status(400, body: #"{"error":"slow_down"}"#), at: .token, times: nil)
        await assertSessionError(.expiredToken) { try await client.completeDeviceAuthorization(authorization) }
        XCTAssertLessThanOrEqual(harness.provider.requests(to: .token).count, 6, "5 + 10 + 15 + 20 + 25 + 30 s, then the expiry")
    }

    func testAServerFailureOrALostPollKeepsPolling() async throws {
        let harness = try harness()
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization()
        harness.provider.approveDeviceSignIn(userCode: authorization.userCode)
        harness.provider.inject(.status(503), at: .token, times: 1)
        harness.provider.inject(.dropConnection, at: .token, times: 1)
        _ = try await client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(harness.provider.requests(to: .token).count, 3)
    }

    /// RFC 8628 §3.5: after a poll lost in transit, or answered by a failing server, the next
    /// wait doubles, so devices do not hammer a provider in trouble; the first poll it answers
    /// brings the interval back.
    func testFailedPollsBackOffUntilTheProviderAnswersAgain() async throws {
        let harness = try harness { $0.approvesDeviceSignInsAfterPolls = 2 }
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization()
        harness.provider.inject(.status(503), at: .token, times: 1)
        harness.provider.inject(.dropConnection, at: .token, times: 1)
        let started = harness.clock.now()
        _ = try await client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(harness.provider.requests(to: .token).count, 4)
        XCTAssertEqual(harness.clock.now().timeIntervalSince(started), 5 + 10 + 20 + 5,
                       "5 s, then 503: 10 s, then lost: 20 s, then pending: 5 s again, then approved")
    }

    /// A backed-off wait never costs the last poll the codes' lifetime leaves room for.
    func testBackingOffLeavesTheLastPollBeforeTheCodesExpire() async throws {
        let harness = try harness { $0.deviceCodeLifetime = 30 }
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization()
        harness.provider.approveDeviceSignIn(userCode: authorization.userCode)
        harness.provider.inject(.dropConnection, at: .token, times: 2)
        let started = harness.clock.now()
        _ = try await client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(harness.clock.now().timeIntervalSince(started), 5 + 10 + 14, "the third wait, 20 s, shortened to end before the expiry")
    }

    func testADenialOrExpiryEndsItWithItsOwnCodeAndNothingStored() async throws {
        let harness = try harness { $0.deviceCodeLifetime = 30 }
        let client = try client(harness)
        let denied = try await client.beginDeviceAuthorization()
        harness.provider.denyDeviceSignIn(userCode: denied.userCode)
        await assertSessionError(.accessDenied, process: .authentication) { try await client.completeDeviceAuthorization(denied) }

        let expiring = try await client.beginDeviceAuthorization()
        let before = harness.provider.requests(to: .token).count
        await assertSessionError(.expiredToken, process: .authentication) { try await client.completeDeviceAuthorization(expiring) }
        XCTAssertLessThanOrEqual(harness.provider.requests(to: .token).count - before, 5, "never polled past the expiry")
        XCTAssertNil(harness.stored)
    }

    func testCancellingTheTaskStopsPollingAtOnce() async throws {
        let harness = try harness { $0.deviceCodeLifetime = 86_400 }
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization()
        let polling = Task { try await client.completeDeviceAuthorization(authorization) }
        polling.cancel()
        await assertSessionError(.cancelled, process: .authentication) { try await polling.value }
        XCTAssertNil(harness.stored)
    }

    func testAConfidentialClientAuthenticatesEveryRequest() async throws {
        let harness = try harness(authentication: .clientSecretPost("tv-secret"))
        let client = try client(harness, authentication: .clientSecretPost("tv-secret"))
        let authorization = try await client.beginDeviceAuthorization()
        harness.provider.approveDeviceSignIn(userCode: authorization.userCode)
        _ = try await client.completeDeviceAuthorization(authorization)
        for request in harness.provider.requests(to: .deviceAuthorization) + harness.provider.requests(to: .token) {
            XCTAssertEqual(request.parameters["client_secret"], "tv-secret")
        }
    }

    /// LocalProvider as strict as a real provider: polling faster than the interval is
    /// `slow_down`, a device code works once, another client cannot use it.
    func testTheProviderRefusesFastPollsReuseAndOtherClients() async throws {
        let harness = try harness { options in
            options.clients.append(LocalProvider.Client(id: "other", redirectURIs: [URL(string: "http://127.0.0.1/callback")!]))
        }
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization()
        func poll(as clientID: String = "tv-app") async throws -> String? {
            let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=\(authorization.deviceCode)&client_id=\(clientID)"
            let response = try await CurlTransport(timeout: 5).send(HTTPRequest(
                method: "POST", url: harness.provider.url(of: .token), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(form.utf8), followsRedirects: false))
            return (try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String ?? "tokens"
        }
        let first = try await poll()
        XCTAssertEqual(first, "authorization_pending")
        let tooSoon = try await poll()
        XCTAssertEqual(tooSoon, "slow_down")
        let otherClient = try await poll(as: "other")
        XCTAssertEqual(otherClient, "invalid_grant")
        harness.provider.approveDeviceSignIn(userCode: authorization.userCode)
        harness.clock.advance(by: 10)
        let approved = try await poll()
        XCTAssertEqual(approved, "tokens")
        harness.clock.advance(by: 10)
        let again = try await poll()
        XCTAssertEqual(again, "invalid_grant", "a device code works once")
        XCTAssertFalse(harness.provider.requestLog.map(\.description).joined().contains(authorization.deviceCode))
    }

    /// No scopes named: no `scope` parameter, the provider's default applies, and an ID token
    /// that comes is still validated.
    func testWithoutScopesTheProvidersDefaultApplies() async throws {
        let harness = try harness()
        let client = try client(harness)
        let authorization = try await client.beginDeviceAuthorization(scopes: [])
        XCTAssertNil(harness.provider.requests(to: .deviceAuthorization).last?.parameters["scope"])
        harness.provider.approveDeviceSignIn(userCode: authorization.userCode)
        let tokens = try await client.completeDeviceAuthorization(authorization)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
    }

    func testAProviderWithoutTheGrantIsAClearError() async throws {
        let harness = try makeLocalHarness()
        try await harness.serveDiscovery(without: ["device_authorization_endpoint"])
        await assertSessionError(.unsupportedProviderFeature, process: .authentication) { try await harness.client.beginDeviceAuthorization() }
    }
}

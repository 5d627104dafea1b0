import ClientTestSupport
import Foundation
import LoopbackHTTP
import SessionCore
import SessionTesting
import XCTest

final class DiscoveryTests: XCTestCase {
    private func client(serving document: Any?, rawBody: Data? = nil) throws -> (SessionClient, FakeProvider) {
        let provider = try FakeProvider()
        let body = try rawBody ?? JSONSerialization.data(withJSONObject: document ?? [:])
        provider.edit { $0.handlers["/.well-known/openid-configuration"] = { _ in HTTPResponse(status: 200, body: body) } }
        return (try makeClient(provider), provider)
    }

    func testDiscoveryIsFetchedOnceAndCached() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        async let first = client.discover()
        async let second = client.discover()
        _ = try await (first, second)
        _ = try await client.discover()
        XCTAssertEqual(provider.requests(to: "/.well-known/openid-configuration").count, 1)
    }

    func testADiscoveryRedirectToAnotherOriginIsNotFollowed() async throws {
        // A provider whose discovery answers 301 to an impostor: the document is at the issuer's own URL or nowhere.
        let impostor = try LoopbackHTTPServer { _ in .respond(.text("{}")) }
        defer { impostor.stop() }
        let provider = try LocalProvider()
        defer { provider.stop() }
        let elsewhere = impostor.baseURL.appendingPathComponent(".well-known/openid-configuration").absoluteString
        provider.inject(.status(301, body: "", headers: ["Location": elsewhere]), at: .discovery, times: nil)
        let client = SessionClient(configuration: try provider.configuration(), store: InMemoryTokenStore())
        do {
            _ = try await client.discover()
            XCTFail("a discovery document from another origin must not be taken")
        } catch let error as SessionError {
            XCTAssertEqual(error.process, .configuration)
        }
        XCTAssertEqual(impostor.acceptedConnections, 0)
    }

    func testIssuerMustMatchExactly() async throws {
        var document = FakeProvider.defaultDiscovery()
        document["issuer"] = "https://op.example/"
        let (client, _) = try client(serving: document)
        await assertSessionError(.issuerMismatch, process: .configuration) { try await client.discover() }
    }

    func testMalformedDocumentsAreRefused() async throws {
        var missing = FakeProvider.defaultDiscovery()
        missing["token_endpoint"] = nil
        var wrongType = FakeProvider.defaultDiscovery()
        wrongType["jwks_uri"] = 42
        var insecure = FakeProvider.defaultDiscovery()
        insecure["token_endpoint"] = "http://op.example/token"
        var notArray = FakeProvider.defaultDiscovery()
        notArray["code_challenge_methods_supported"] = "S256"
        // The endpoints the browser or the device grant is sent to are held to the same rule.
        var insecureEndSession = FakeProvider.defaultDiscovery()
        insecureEndSession["end_session_endpoint"] = "http://op.example/logout"
        var insecureDevice = FakeProvider.defaultDiscovery()
        insecureDevice["device_authorization_endpoint"] = "http://op.example/device"
        for document in [missing, wrongType, insecure, notArray, insecureEndSession, insecureDevice] {
            let (client, _) = try client(serving: document)
            await assertSessionError(.invalidDiscoveryDocument, process: .configuration) { try await client.discover() }
        }
        for body in [Data("<html>".utf8), Data("[]".utf8), Data()] {
            let (client, _) = try client(serving: nil, rawBody: body)
            await assertSessionError(.invalidDiscoveryDocument, process: .configuration) { try await client.discover() }
        }
    }

    func testAHugeBodyIsRefusedAsTooLarge() async throws {
        let huge = Data("{\"issuer\":\"".utf8) + Data(repeating: 0x61, count: 2 << 20) + Data("\"}".utf8)
        let (client, _) = try client(serving: nil, rawBody: huge)
        await assertSessionError(.responseTooLarge, process: .configuration) { try await client.discover() }
    }

    func testAProviderWithoutS256IsRefusedRatherThanDowngraded() async throws {
        var document = FakeProvider.defaultDiscovery()
        document["code_challenge_methods_supported"] = ["plain"]
        let (client, _) = try client(serving: document)
        await assertSessionError(.unsupportedProviderFeature) { try await client.discover() }
    }

    func testAnErrorStatusIsAnInvalidDocumentWithTheStatus() async throws {
        let provider = try FakeProvider()
        provider.edit { $0.handlers["/.well-known/openid-configuration"] = { _ in HTTPResponse(status: 503) } }
        let error = await assertSessionError(.invalidDiscoveryDocument) { try await makeClient(provider).discover() }
        XCTAssertEqual(error?.httpStatus, 503)
    }

    /// A provider whose discovery document names no revocation endpoint, and whose RFC 8414
    /// document is `oauthMetadata`.
    private func providerWithoutOpenIDRevocation(oauthMetadata: [String: String]) throws -> FakeProvider {
        let provider = try FakeProvider()
        let body = try JSONSerialization.data(withJSONObject: oauthMetadata)
        provider.edit { settings in
            settings.discovery["revocation_endpoint"] = nil
            settings.handlers["/.well-known/oauth-authorization-server"] = { _ in HTTPResponse(status: 200, body: body) }
        }
        return provider
    }

    func testDiscoveryIsOneRequest() async throws {
        let provider = try providerWithoutOpenIDRevocation(oauthMetadata: ["issuer": FakeProvider.issuer.absoluteString])
        let client = try makeClient(provider)
        _ = try await client.discover()
        _ = try await client.signIn(agent: provider)
        XCTAssertEqual(provider.log.filter { $0.url.path.hasPrefix("/.well-known") }.map(\.url.path), ["/.well-known/openid-configuration"],
                       "a sign-in needs the discovery document only")
    }

    func testRevocationEndpointIsTakenFromOAuthMetadataWhenOpenIDLacksItAskedOnce() async throws {
        let provider = try providerWithoutOpenIDRevocation(oauthMetadata: [
            "issuer": FakeProvider.issuer.absoluteString, "revocation_endpoint": "https://op.example/o/revoke",
        ])
        let client = try makeClient(provider)
        let endpoint = try await client.revocationEndpoint()
        XCTAssertEqual(endpoint?.absoluteString, "https://op.example/o/revoke")
        _ = try await client.revocationEndpoint()
        XCTAssertEqual(provider.requests(to: "/.well-known/oauth-authorization-server").count, 1)
    }

    func testOAuthMetadataOfAnotherIssuerIsIgnored() async throws {
        let provider = try providerWithoutOpenIDRevocation(oauthMetadata: [
            "issuer": "https://evil.example", "revocation_endpoint": "https://evil.example/revoke",
        ])
        let endpoint = try await makeClient(provider).revocationEndpoint()
        XCTAssertNil(endpoint)
    }

    func testTransportFailuresBecomeNetworkErrors() async throws {
        let provider = try FakeProvider()
        provider.edit { $0.handlers["/.well-known/openid-configuration"] = { _ in throw HTTPTransportError(.cannotConnect, detail: "refused") } }
        await assertSessionError(.cannotConnect, process: .configuration) { try await makeClient(provider).discover() }
        provider.edit { $0.handlers["/.well-known/openid-configuration"] = { _ in throw HTTPTransportError(.connectionLost, detail: "reset") } }
        await assertSessionError(.networkError, process: .configuration) { try await makeClient(provider).discover() }
        provider.edit { $0.handlers["/.well-known/openid-configuration"] = { _ in throw HTTPTransportError(.timedOut, detail: "slow") } }
        await assertSessionError(.timeout, process: .configuration) { try await makeClient(provider).discover() }
    }

    func testTheIssuerOfADiscoveryURL() {
        let cases = [
            ("https://op.example/.well-known/openid-configuration", "https://op.example"),
            ("https://op.example/o/.well-known/openid-configuration", "https://op.example/o"),
            ("https://op.example/o/", "https://op.example/o"),
            ("https://op.example", "https://op.example"),
        ]
        for (discovery, issuer) in cases {
            XCTAssertEqual(ProviderMetadata.issuer(forDiscoveryURL: URL(string: discovery)!).absoluteString, issuer, discovery)
        }
    }
}

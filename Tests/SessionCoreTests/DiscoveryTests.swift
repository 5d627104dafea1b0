import Foundation
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
        for document in [missing, wrongType, insecure, notArray] {
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

    /// Discovery where only the RFC 8414 document (serving `oauthMetadata`) may name a revocation endpoint.
    private func discoverWithoutOpenIDRevocation(oauthMetadata: [String: String]) async throws -> ProviderMetadata {
        let provider = try FakeProvider()
        let body = try JSONSerialization.data(withJSONObject: oauthMetadata)
        provider.edit { settings in
            settings.discovery["revocation_endpoint"] = nil
            settings.handlers["/.well-known/oauth-authorization-server"] = { _ in HTTPResponse(status: 200, body: body) }
        }
        return try await makeClient(provider).discover()
    }

    func testRevocationEndpointIsTakenFromOAuthMetadataWhenOpenIDLacksIt() async throws {
        let metadata = try await discoverWithoutOpenIDRevocation(oauthMetadata: [
            "issuer": FakeProvider.issuer.absoluteString, "revocation_endpoint": "https://op.example/o/revoke",
        ])
        XCTAssertEqual(metadata.revocationEndpoint?.absoluteString, "https://op.example/o/revoke")
    }

    func testOAuthMetadataOfAnotherIssuerIsIgnored() async throws {
        let metadata = try await discoverWithoutOpenIDRevocation(oauthMetadata: [
            "issuer": "https://evil.example", "revocation_endpoint": "https://evil.example/revoke",
        ])
        XCTAssertNil(metadata.revocationEndpoint)
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

import ClientTestSupport
import Foundation
@testable import SessionCore
import SessionTesting
import XCTest

/// ID tokens without a signature (`alg` `none`) only for a client registered for them, only
/// from the token endpoint, with every claim still checked; the default refuses them.
final class UnsignedIDTokenTests: XCTestCase {
    private func harness(registered: IDTokenSigning, configured: IDTokenSigning,
                         edit: (inout LocalProvider.Options) -> Void = { _ in }) throws -> (LocalProvider, SessionClient, ManualClock) {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock) { options in
            options.clients = [LocalProvider.Client(id: "rp", redirectURIs: [URL(string: "http://127.0.0.1/callback")!],
                                                    idTokenSigning: registered)]
            edit(&options)
        }
        addTeardownBlock { provider.stop() }
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: "rp", redirectURI: URL(string: "http://127.0.0.1/callback")!,
                                                     idTokenSigning: configured)
        return (provider, SessionClient(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock), clock)
    }

    func testARegisteredClientAcceptsUnsignedTokensOnSignInAndRefresh() async throws {
        let (provider, client, _) = try harness(registered: .unsigned, configured: .unsigned)
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(tokens.subject, "erika")
        XCTAssertTrue(tokens.idToken?.hasSuffix(".") == true, "the provider sent an unsigned token")
        _ = try await client.refresh()
        XCTAssertTrue(provider.requests(to: .jwks).isEmpty, "no key set is needed")
    }

    func testTheDefaultRefusesUnsignedTokens() async throws {
        let (_, client, _) = try harness(registered: .unsigned, configured: .signed)
        await assertSessionError(.idTokenUnsupportedAlgorithm) { try await client.signIn(agent: HeadlessUserAgent()) }
    }

    func testASignedTokenIsRefusedWhereUnsignedWasRegistered() async throws {
        let (_, client, _) = try harness(registered: .signed, configured: .unsigned)
        await assertSessionError(.idTokenUnsupportedAlgorithm) { try await client.signIn(agent: HeadlessUserAgent()) }
    }

    func testEveryClaimIsStillChecked() async throws {
        // Issued an hour ahead of the client's clock: 'iat' in the future is refused even unsigned.
        let (provider, client, clock) = try harness(registered: .unsigned, configured: .unsigned)
        _ = provider
        let early = ManualClock(clock.now().addingTimeInterval(-3600))
        let behind = SessionClient(configuration: client.configuration, transport: CurlTransport(timeout: 5), clock: early)
        await assertSessionError(.idTokenIssuedInFuture) { try await behind.signIn(agent: HeadlessUserAgent()) }
    }

    func testAnUnsignedTokenMustBeBareAndComeOverTLSOrLoopback() throws {
        let validator = IDTokenValidator(issuer: "https://op.example", clientID: "rp", clock: SystemClock(), allowedSkew: 120)
        let secure = URL(string: "https://op.example/token")!
        func jws(_ header: [String: JSONValue], signature: Data = Data()) -> CompactJWS {
            CompactJWS(header: header, signingInput: Data("h.p".utf8), signature: signature)
        }
        XCTAssertNoThrow(try validator.checkUnsigned(jws(["alg": .string("none")]), from: secure))
        XCTAssertNoThrow(try validator.checkUnsigned(jws(["alg": .string("none")]), from: URL(string: "http://127.0.0.1:9/token")!))
        for (token, source, code) in [
            (jws(["alg": .string("none")], signature: Data([1])), secure, SessionError.Code.idTokenSignatureInvalid),
            (jws(["alg": .string("none"), "crit": .array([])]), secure, .idTokenMalformed),
            (jws(["alg": .string("None")]), secure, .idTokenUnsupportedAlgorithm),
            (jws(["alg": .string("none")]), URL(string: "http://op.example/token")!, .idTokenUnsupportedAlgorithm),
        ] {
            XCTAssertThrowsError(try validator.checkUnsigned(token, from: source)) { error in
                XCTAssertEqual((error as? SessionError)?.code, code)
            }
        }
    }
}

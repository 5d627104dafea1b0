import ClientTestSupport
import Foundation
import SessionCore
import SessionPermissions
import SessionTesting
import XCTest

/// The netID-model permission center, against LocalProvider's, which answers only its versioned
/// media types and keeps each subject's record.
final class PermissionCenterTests: XCTestCase {
    private static let loginPermission = ["openid", "permission_management"]

    private func signedIn(scopes: [String] = loginPermission) async throws -> (LocalHarness, SessionTokens) {
        let harness = try makeLocalHarness()
        let tokens = try await harness.client.signIn(scopes: scopes, agent: HeadlessUserAgent())
        return (harness, tokens)
    }

    func testAReadAsksForTheIdentifiersWithThePermissionTokenAndGetsTheRecord() async throws {
        let (harness, tokens) = try await signedIn()
        let subject = try XCTUnwrap(tokens.subject)
        harness.provider.setPermissions(LocalProvider.PermissionRecord(idConsent: .valid, changedAt: "2026-01-01T00:00:00Z"), of: subject)
        let response = try await harness.permissions().fetchPermissions(identifiers: [.synchronizationIdentifier, .tagProtocolIdentifier])
        XCTAssertEqual(response.statusCode, .permissionsFound)
        XCTAssertEqual(response.subjectIdentifiers?.syncId, "sync-\(subject)")
        XCTAssertEqual(response.subjectIdentifiers?.tpId, "tpid-\(subject)")
        XCTAssertEqual(response.privacySettings?.idConsent?.status, .valid)
        let request = try XCTUnwrap(harness.provider.requests(to: .permissionRead).last)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.parameters["q.identifier.in"], "TPID,SYNC_ID")
        XCTAssertEqual(request.authorization, "Bearer \(try tokens.permissionToken)")
    }

    func testThePermissionTokenIsTheIDTokensClaimOrTheAccessTokenWithoutIDToken() async throws {
        let (_, both) = try await signedIn()
        let claim = try IDToken(try XCTUnwrap(both.idToken)).claims["permission_management"]?.objectValue?["access_token"]?.stringValue
        XCTAssertEqual(try both.permissionToken, try XCTUnwrap(claim))
        XCTAssertNotEqual(try both.permissionToken, both.accessToken)

        let (_, permissionOnly) = try await signedIn(scopes: ["permission_management"])
        XCTAssertNil(permissionOnly.idToken)
        XCTAssertEqual(try permissionOnly.permissionToken, permissionOnly.accessToken)

        let (harness, loginOnly) = try await signedIn(scopes: ["openid"])
        XCTAssertThrowsError(try loginOnly.permissionToken) { error in
            XCTAssertEqual((error as? SessionError)?.code, .insufficientScope)
            XCTAssertEqual((error as? SessionError)?.permissionStatus, .tokenError)
        }
        let refused = await assertSessionError(.insufficientScope, process: .permissionWrite) {
            try await harness.permissions().updatePermissions(PermissionUpdate(idConsent: .valid))
        }
        XCTAssertEqual(refused?.permissionStatus, .tokenError)
        XCTAssertTrue(harness.provider.requests(to: .permissionWrite).isEmpty, "nothing is sent without a permission token")
    }

    func testAWriteChangesTheRecordAndReturnsTheIdentifiers() async throws {
        let (harness, tokens) = try await signedIn()
        let subject = try XCTUnwrap(tokens.subject)
        let identifiers = try await harness.permissions().updatePermissions(PermissionUpdate(idConsent: .invalid, iabTcString: "CP-tc"),
                                                                            identifiers: [.tagProtocolIdentifier])
        XCTAssertEqual(identifiers.tpId, "tpid-\(subject)")
        let record = try XCTUnwrap(harness.provider.permissions(of: subject))
        XCTAssertEqual(record.idConsent, .invalid)
        XCTAssertEqual(record.iabTcString, "CP-tc")
        XCTAssertEqual(harness.provider.requests(to: .permissionWrite).last?.method, "POST")
    }

    func testTheCentersErrorsCarryItsStatus() async throws {
        let (harness, tokens) = try await signedIn()
        harness.provider.inject(.status(404, body: #"{"status_code":"TPID_EXISTENCE_ERROR"}"#), at: .permissionWrite)
        let write = await assertSessionError(.permissionRequestFailed, process: .permissionWrite) {
            try await harness.permissions().updatePermissions(PermissionUpdate(idConsent: .valid))
        }
        XCTAssertEqual(write?.permissionStatus, .tpidExistenceError)
        XCTAssertEqual(write?.httpStatus, 404)
        harness.provider.inject(.status(400, body: #"{"status_code":"SOMETHING_NEW"}"#), at: .permissionRead)
        let read = await assertSessionError(.permissionRequestFailed, process: .permissionRead) { try await harness.permissions().fetchPermissions() }
        XCTAssertEqual(read?.permissionStatus, .unknown)
        harness.provider.inject(.malformedBody, at: .permissionRead)
        let parse = await assertSessionError(.invalidResponse, process: .permissionRead) { try await harness.permissions().fetchPermissions() }
        XCTAssertEqual(parse?.permissionStatus, .jsonParseError)
        // A subject the center has no record of.
        harness.provider.setPermissions(nil, of: try XCTUnwrap(tokens.subject))
        let missing = await assertSessionError(.permissionRequestFailed, process: .permissionRead) { try await harness.permissions().fetchPermissions() }
        XCTAssertEqual(missing?.permissionStatus, .permissionsNotFound)
    }

    /// LocalProvider is as strict as the center: a request for another media type, or a body of
    /// another, is refused, so the tests above prove the client sends the center's own.
    func testTheLocalCenterRefusesOtherMediaTypes() async throws {
        let (harness, tokens) = try await signedIn()
        let bearer = "Bearer \(try tokens.permissionToken)"
        let transport = CurlTransport(timeout: 5)
        let read = try await transport.send(HTTPRequest(method: "GET", url: harness.provider.url(of: .permissionRead),
                                                        headers: ["Authorization": bearer, "Accept": "application/json"]))
        XCTAssertEqual(read.status, 406)
        let write = try await transport.send(HTTPRequest(method: "POST", url: harness.provider.url(of: .permissionWrite),
                                                         headers: ["Authorization": bearer, "Content-Type": "application/json"],
                                                         body: Data(#"{"idconsent":"VALID"}"#.utf8)))
        XCTAssertEqual(write.status, 415)
    }
}

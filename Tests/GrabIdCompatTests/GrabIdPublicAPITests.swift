// Every public symbol of GrabID 1.0.6, used as a partner app and its tests use it, in Swift 5
// language mode with only GrabIdCompat imported: exhaustive switches, every initializer with its
// labels and defaults, archiving, and GrabID's checks of a login session's settings.
// Much of this file is a compile-time check: a line that compiles is the proof, and runtime
// assertions are kept for what can differ at run time (values, defaults, behaviour).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GrabIdCompat
import XCTest

/// A partner subclass, as an app's test double would be (GrabID's methods are public, not open).
final class AppGrabIdPartner: GrabIdPartner {
    override init(bundle: Bundle = Bundle.main) {
        super.init(bundle: bundle)
    }
}

final class GrabIdPublicAPITests: XCTestCase {
    private func retryable(_ code: GrabIdPartnerErrorCode) -> Bool {
        switch code {
        case .network, .serviceUnavailable, .grabIdServiceFailed, .discoveryServiceFailed: return true
        case .idTokenInfoServiceFailed, .exchangeTokenServiceFailed, .authorizationInitializationFailure, .securityValidationFailed,
             .logoutFailed, .invalidIdToken, .invalidNonce, .invalidConfiguration, .somethingWentWrong, .invalidClientId, .invalidScope,
             .invalidRedirectUrl, .invalidAuthorizationCode, .invalidUrl, .invalidPartnerId, .unAuthorized, .authorizationFailed,
             .serviceError, .invalidAccessToken, .invalidResponse, .invalidServiceDiscoveryUrl, .invalidAppBundle,
             .invalidCustomProtocolUrl, .failedTolaunchAppStoreLink, .launchAppStoreLink, .partnerAppError:
            return false
        }
    }

    private func label(_ domain: GrabIdPartnerErrorDomain) -> String {
        switch domain {
        case .serviceDiscovery: return "discovery"
        case .loadConfiguration: return "configuration"
        case .authorization: return "login"
        case .exchangeToken: return "exchange"
        case .getIdTokenInfo: return "idtoken"
        case .logout: return "logout"
        case .protectedResource: return "resource"
        case .customProtocolsService: return "apps"
        case .appStore: return "store"
        }
    }

    func testTheEnumsHaveGrabIdsCasesAndRawValues() {
        XCTAssertEqual(GrabIdPartnerErrorDomain.allCases.map { $0.rawValue }, Array(0...8))
        XCTAssertEqual(GrabIdPartnerErrorDomain.allCases.map(label),
                       ["discovery", "configuration", "login", "exchange", "idtoken", "logout", "resource", "apps", "store"])
        XCTAssertEqual(GrabIdPartnerErrorCode.allCases.map { $0.rawValue }, Array(0...28) + [10000])
        XCTAssertEqual(GrabIdPartnerErrorCode(rawValue: 11), .network)
        XCTAssertEqual(GrabIdPartnerErrorCode.allCases.filter(retryable).count, 4)
        XCTAssertEqual(GrabIdPartnerLocalization.allCases.count, 15)
        XCTAssertEqual(GrabIdPartnerLocalization.securityValidationFailed.rawValue, "Security validation failed.")
        XCTAssertEqual(GrabIdPartnerLocalization.somethingWentWrong.rawValue, "Unknown.")
        XCTAssertEqual(GrabIdPartnerLocalization(rawValue: "Invalid Nonce."), .invalidNonce)
        XCTAssertEqual(GrabIdPartnerLocalization(rawValue: "anything else"), .somethingWentWrong, "GrabID's fallback, never nil")
    }

    func testErrorsAreNSObjectsWithGrabIdsInitializer() {
        let plain = GrabIdPartnerError(code: .invalidUrl, domain: .protectedResource)
        XCTAssertNil(plain.localizeMessage)
        XCTAssertNil(plain.serviceError)
        let full = GrabIdPartnerError(code: .serviceError, localizeMessage: "failed", domain: .protectedResource,
                                      serviceError: URLError(.timedOut))
        XCTAssertEqual(full.localizeMessage, "failed")
        XCTAssertEqual((full.serviceError as? URLError)?.code, .timedOut)
        let _: NSObject = full // compile-time: an NSObject, as GrabID's
    }

    func testLoginSessionsHaveBothInitializersAndSettableSettings() throws {
        let url = try XCTUnwrap(URL(string: "grabtest://testopen"))
        let short = LoginSession(clientId: "client", redirectUrl: url, scope: "openid", serviceDiscoveryUrl: "https://example.com/discovery")
        XCTAssertEqual(short.hint, "")
        XCTAssertNil(short.request)
        XCTAssertNil(short.acrValues)
        let full = LoginSession(clientId: "client", redirectUrl: url, scope: "a b openid", request: "jwt", acrValues: ["service": "PASSENGER"],
                                serviceDiscoveryUrl: "https://example.com/discovery", hint: "h", idTokenHint: "it", prompt: "consent")
        full.scope = "changed"
        full.request = "other"
        full.hint = "h2"
        full.idTokenHint = "it2"
        full.prompt = "login"
        full.acrValues = ["consent_ctx": "countryCode=SG"]
        full.redirectUrl = url
        XCTAssertEqual([full.scope, full.request, full.hint, full.idTokenHint, full.prompt], ["changed", "other", "h2", "it2", "login"])
        XCTAssertEqual(full.acrValues, ["consent_ctx": "countryCode=SG"])
        XCTAssertEqual(full.serviceDiscoveryUrl, "https://example.com/discovery")
        XCTAssertNil(full.state)
        XCTAssertNil(full.nonce)
        XCTAssertNil(full.codeVerifier)
        XCTAssertNil(full.code)
        XCTAssertNil(full.tokenType)
        XCTAssertNil(full.accessToken)
        XCTAssertNil(full.idToken)
        XCTAssertNil(full.refreshToken)
        XCTAssertNil(full.accessTokenExpiresAt)
    }

    func testLoginSessionsArchiveWhatGrabIdArchives() throws {
        let url = try XCTUnwrap(URL(string: "grabtest://testopen"))
        let session = LoginSession(clientId: "client", redirectUrl: url, scope: "openid", serviceDiscoveryUrl: "https://example.com/d",
                                   hint: "h", idTokenHint: "it", prompt: "p")
        let data = try NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: false)
        let restored = try XCTUnwrap(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(data) as? LoginSession)
        XCTAssertEqual(restored.hint, "h")
        XCTAssertEqual(restored.idTokenHint, "it")
        XCTAssertEqual(restored.prompt, "p")
        XCTAssertEqual(restored.serviceDiscoveryUrl, "https://example.com/d")
        XCTAssertEqual(restored.clientId, "", "GrabID does not archive the client ID")
        XCTAssertEqual(restored.scope, "")
        XCTAssertEqual(restored.redirectUrl.absoluteString, "temp")
        XCTAssertEqual(restored.request, "")
    }

    /// GrabID's archive keys, the four endpoints included: a session read from an archive
    /// GrabID wrote keeps them and writes them back. An archive that lacks the other keys reads
    /// them as absent.
    func testLoginSessionsKeepGrabIdsEndpointKeys() throws {
        let endpoints = ["tokenEndpoint": "https://id.example/token", "authorizationEndpoint": "https://id.example/authorize",
                         "idTokenVerificationEndpoint": "https://id.example/verify", "clientPublicInfoEndpoint": "https://id.example/client"]
        let written = try NSKeyedArchiver.archivedData(withRootObject: GrabIdShapedArchive(endpoints), requiringSecureCoding: false)
        let session = try XCTUnwrap(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(written) as? LoginSession)

        let rewritten = try NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: false)
        let reader = try NSKeyedUnarchiver(forReadingFrom: rewritten)
        reader.requiresSecureCoding = false
        reader.setClass(GrabIdShapedArchive.self, forClassName: NSStringFromClass(LoginSession.self))
        let read = try XCTUnwrap(reader.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? GrabIdShapedArchive)
        XCTAssertEqual(read.values, endpoints)
    }

    func testCreateLoginSessionChecksAsGrabIdDoes() {
        let partner = GrabIdPartner(callbackQueue: .main)
        let cases: [(String?, String?, String?, String?, GrabIdPartnerErrorCode?)] = [
            ("", "grabtest://open", "scope", "https://d", .invalidClientId),
            (nil, "", "scope", "https://d", .invalidClientId),
            ("client", "", "scope", "https://d", .invalidRedirectUrl),
            ("client", nil, "scope", "https://d", .invalidRedirectUrl),
            ("client", "grabtest://open", "", "https://d", .invalidScope),
            ("client", "grabtest://open", nil, "https://d", .invalidScope),
            ("client", "grabtest://open", "scope", nil, .somethingWentWrong),
            ("client", "testRedirectUrl", "scope", "", nil),
        ]
        for (clientId, redirectUrl, scope, discovery, expected) in cases {
            let (session, error) = partner.createLoginSession(clientId: clientId, redirectUrl: redirectUrl, scope: scope,
                                                              serviceDiscoveryUrl: discovery)
            XCTAssertEqual(error?.code, expected, "\(String(describing: clientId)) \(String(describing: redirectUrl)) \(String(describing: scope))")
            XCTAssertEqual(session == nil, expected != nil)
            if let error = error {
                XCTAssertEqual(error.domain, .loadConfiguration)
                XCTAssertEqual(error.localizeMessage.flatMap(GrabIdPartnerLocalization.init(rawValue:)).map { "\($0)" }, "\(error.code)")
            }
        }
    }

    func testLoadLoginSessionReadsTheBundlesInfoPlist() throws {
        let bundleURL = FileManager.default.temporaryDirectory.appendingPathComponent("grabid-\(UUID().uuidString).bundle")
        try FileManager.default.createDirectory(at: bundleURL, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: bundleURL) }
        let settings: [String: Any] = [
            "ClientId": "TestClientId", "RedirectUrl": "grabtest://testopen", "Scope": "test_scope1 test_scope2",
            "AcrValues": ["acrKey1": "acrValue1", "acrKey2": "acrValue2"], "Request": "test request", "Hint": "test hint",
            "prompt": "consent", "Prompt": "ignored",
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": "test.grabid", "GrabIdPartnerSDK": settings],
                                                       format: .xml, options: 0)
        try plist.write(to: bundleURL.appendingPathComponent("Info.plist"))
        let bundle = try XCTUnwrap(Bundle(path: bundleURL.path))
        let partner = GrabIdPartner(urlSession: URLSession(configuration: .ephemeral), bundle: bundle)
        let loaded = expectation(description: "loadLoginSession")
        partner.loadLoginSession { loginSession, error in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertNil(error)
            XCTAssertEqual(loginSession?.clientId, "TestClientId")
            XCTAssertEqual(loginSession?.acrValues?["acrKey2"], "acrValue2")
            XCTAssertEqual(loginSession?.request, "test request")
            XCTAssertEqual(loginSession?.hint, "test hint")
            XCTAssertEqual(loginSession?.prompt, "consent", "GrabID reads 'prompt' in lower case")
            XCTAssertEqual(loginSession?.serviceDiscoveryUrl, "", "a missing discovery URL is accepted")
            loaded.fulfill()
        }
        wait(for: [loaded], timeout: 5)

        let empty = GrabIdPartner(bundle: Bundle(path: FileManager.default.temporaryDirectory.path) ?? .main)
        let missing = expectation(description: "no settings")
        empty.loadLoginSession { loginSession, error in
            XCTAssertNil(loginSession)
            XCTAssertEqual(error?.code, .invalidConfiguration)
            XCTAssertEqual(error?.localizeMessage, "Configuration error.")
            missing.fulfill()
        }
        wait(for: [missing], timeout: 5)
    }

    func testThePartnerIsAnOpenNSObjectWithGrabIdsInitializers() throws {
        // Compile-time: the shared instance and every initializer, each an NSObject, and a subclass.
        let _: GrabIdPartnerProtocol? = GrabIdPartner.sharedInstance()
        let _: [NSObject] = [GrabIdPartner(), GrabIdPartner(bundle: .main), GrabIdPartner(urlSession: .shared),
                             GrabIdPartner(urlSession: .shared, bundle: .main), AppGrabIdPartner()]
        let partner = GrabIdPartner(callbackQueue: DispatchQueue(label: "grabid-tests.callbacks"))
        let session = LoginSession(clientId: "c", redirectUrl: try XCTUnwrap(URL(string: "grabtest://open")), scope: "openid",
                                   serviceDiscoveryUrl: "https://example.com")
        // The logout's work must end before the test does: a process that exits while it still
        // runs can crash in teardown (seen under `swift test --parallel`, one process per test).
        let loggedOut = expectation(description: "logout completed")
        partner.logout(loginSession: session) { _ in loggedOut.fulfill() }
        wait(for: [loggedOut], timeout: 10)
        XCTAssertFalse(partner.isValidAccessToken(loginSession: session))
        XCTAssertFalse(partner.loginCompleted(loginSession: session), "no login page was shown")
    }
}

/// An archive with GrabID's endpoint keys, under LoginSession's class name: what GrabID's
/// `encode(with:)` left, as far as these keys go.
final class GrabIdShapedArchive: NSObject, NSCoding {
    let values: [String: String]

    init(_ values: [String: String]) {
        self.values = values
    }

    /// Archived under LoginSession's class name, as GrabID's session was.
    override var classForKeyedArchiver: AnyClass? { LoginSession.self }

    func encode(with coder: NSCoder) {
        for (key, value) in values { coder.encode(value, forKey: key) }
    }

    init?(coder: NSCoder) {
        values = Dictionary(uniqueKeysWithValues: ["tokenEndpoint", "authorizationEndpoint", "idTokenVerificationEndpoint", "clientPublicInfoEndpoint"]
            .compactMap { key in coder.containsValue(forKey: key) ? (coder.decodeObject(forKey: key) as? String).map { (key, $0) } : nil })
    }
}

// Every UI-free public symbol of netid-sdk-ios 1.2.0, used the way an app uses it, in Swift 5
// language mode with only NetIdCompat imported: exhaustive switches over every enum, every
// initializer with its labels, the protocols netID's service conforms to.
// Much of this file is a compile-time check: a line that compiles is the proof, and runtime
// assertions are kept for what can differ at run time (values, defaults, behaviour).
import Foundation
import NetIdCompat
import XCTest

/// An app subclassing netID's open service class, as a test double would.
final class AppNetIdService: NetIdService {
    override init() {
        super.init()
    }
}

/// An app class standing in for netID's permission manager delegate and layer delegate.
final class AppLayerHandler: PermissionManagerDelegate, AuthorizationViewDelegate {
    var events: [String] = []
    func didFetchPermissions(_ permissions: PermissionReadResponse) { events.append("permissions") }
    func didFetchPermissionsWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) { events.append("permissionsError") }
    func didUpdatePermission(_ subjectIdentifiers: SubjectIdentifiers) { events.append("updated") }
    func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) { events.append("updateError") }
    func didTapDismiss() { events.append("dismiss") }
    func didTapContinue(universalLink: String?, presentingViewController: NetIdPresentationAnchor, authFlow: NetIdAuthFlow) {
        events.append("continue \(authFlow)")
    }
}

final class NetIdPublicAPITests: XCTestCase {
    // MARK: Enums, switched over as apps do (no default: a missing or extra case stops the build)

    private func label(_ flow: NetIdAuthFlow) -> String {
        switch flow {
        case .Permission: return "permission"
        case .Login: return "login"
        case .LoginPermission: return "login+permission"
        }
    }

    private func label(_ style: NetIdLayerStyle) -> String {
        switch style {
        case .Solid: return "solid"
        case .Outline: return "outline"
        }
    }

    private func label(_ style: NetIdButtonStyle) -> String {
        switch style {
        case .WhiteSolid: return "white"
        case .GreenSolid: return "green"
        case .GrayOutline: return "gray"
        }
    }

    private func label(_ process: NetIdErrorProcess) -> String {
        switch process {
        case .Configuration: return "init"
        case .Authentication: return "auth"
        case .UserInfo: return "userinfo"
        case .PermissionRead: return "read"
        case .PermissionWrite: return "write"
        }
    }

    private func isTransient(_ code: NetIdErrorCode) -> Bool {
        switch code {
        case .Timeout, .NetworkError, .TemporarilyUnavailable, .ServerError: return true
        case .NoAuth, .JsonDeserializationError, .ResponseDataMissing, .InvalidDiscoveryDocument, .Unknown,
             .AuthorizationCanceledByUser, .MissingBrowser, .InvalidRequest, .UnauthorizedClient, .AccessDenied,
             .UnsupportedResponseType, .InvalidScope, .InitializationError, .ClientError, .StateMismatch,
             .NoIdAppInstalled, .Other:
            return false
        }
    }

    private func label(_ option: NetIdIdentifierOption) -> String {
        switch option {
        case .tagProtocolIdentifier: return "tpid"
        case .synchronizationIdentifier: return "sync"
        case .encryptedTagProtocolIdentifier: return "etpid"
        }
    }

    private func label(_ status: NetIdPermissionStatus) -> String {
        switch status {
        case .VALID: return "valid"
        case .INVALID: return "invalid"
        }
    }

    private func needsSignIn(_ status: PermissionResponseStatus) -> Bool {
        switch status {
        case .NO_TOKEN, .TOKEN_ERROR: return true
        case .PERMISSIONS_FOUND, .PERMISSIONS_NOT_FOUND, .PERMISSION_PARAMETERS_ERROR, .NO_PERMISSIONS, .JSON_PARSE_ERROR,
             .NO_REQUEST_BODY, .TAPP_NOT_ALLOWED, .TPID_EXISTENCE_ERROR, .NO_TPID, .NO_TAPP_ID, .TAPP_ERROR,
             .ID_CONSENT_REQUIRED, .UNKNOWN:
            return false
        }
    }

    func testEveryEnumHasNetIdsCasesAndRawValues() {
        XCTAssertEqual([NetIdAuthFlow.Permission, .Login, .LoginPermission].map(label), ["permission", "login", "login+permission"])
        XCTAssertEqual([NetIdLayerStyle.Solid, .Outline].map(label), ["solid", "outline"])
        XCTAssertEqual([NetIdButtonStyle.WhiteSolid, .GreenSolid, .GrayOutline].map(label), ["white", "green", "gray"])
        XCTAssertEqual(NetIdErrorProcess.allCases.map(label), ["init", "auth", "userinfo", "read", "write"])
        XCTAssertEqual(NetIdErrorCode.allCases.filter(isTransient), [.Timeout, .NetworkError, .ServerError, .TemporarilyUnavailable])
        XCTAssertEqual(NetIdErrorCode.allCases.map { $0.rawValue }, [
            "Timeout", "NoAuth", "NetworkError", "JsonDeserializationError", "ResponseDataMissing", "InvalidDiscoveryDocument",
            "Unknown", "AuthorizationCanceledByUser", "MissingBrowser", "InvalidRequest", "UnauthorizedClient", "AccessDenied",
            "UnsupportedResponseType", "InvalidScope", "ServerError", "InitializationError", "TemporarilyUnavailable",
            "ClientError", "StateMismatch", "NoIdAppInstalled", "Other",
        ])
        XCTAssertEqual(NetIdIdentifierOption(rawValue: "SYNC_ID").map(label), "sync")
        XCTAssertEqual([NetIdIdentifierOption.tagProtocolIdentifier, .synchronizationIdentifier, .encryptedTagProtocolIdentifier].map { $0.rawValue },
                       ["TPID", "SYNC_ID", "ETPID"])
        XCTAssertEqual(NetIdPermissionStatus(rawValue: "INVALID").map(label), "invalid")
        XCTAssertEqual(PermissionResponseStatus.allCases.map { $0.rawValue }, [
            "PERMISSIONS_FOUND", "PERMISSIONS_NOT_FOUND", "PERMISSION_PARAMETERS_ERROR", "NO_TOKEN", "TOKEN_ERROR", "NO_PERMISSIONS",
            "JSON_PARSE_ERROR", "NO_REQUEST_BODY", "TAPP_NOT_ALLOWED", "TPID_EXISTENCE_ERROR", "NO_TPID", "NO_TAPP_ID", "TAPP_ERROR",
            "ID_CONSENT_REQUIRED", "UNKNOWN",
        ])
        XCTAssertEqual(PermissionResponseStatus.allCases.filter(needsSignIn), [.NO_TOKEN, .TOKEN_ERROR])
        XCTAssertEqual(PermissionResponseStatus(rawValue: "ID_CONSENT_REQUIRED"), .ID_CONSENT_REQUIRED)
    }

    // MARK: Models, made with netID's initializers

    func testUserInfoHasNetIdsInitializerCodableAndDescription() throws {
        let address = Address(streetAddress: "Hauptstr. 1", country: "DE", formatted: "Hauptstr. 1, 10115 Berlin",
                              locality: "Berlin", postalCode: "10115")
        let shipping = ShippingAddress(streetAddress: "Nebenstr. 2", country: "DE", formatted: "Nebenstr. 2, 80331 München",
                                       locality: "München", postalCode: "80331", recipient: "Erika Mustermann")
        let info = UserInfo(sub: "erika", birthdate: "1964-08-12", emailVerified: true, address: address, gender: "female",
                            shippingAddress: shipping, givenName: "Erika", familyName: "Mustermann", email: "erika@example.com")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(info.description.utf8)) as? [String: Any])
        XCTAssertEqual(Set(json.keys), ["sub", "birthdate", "email_verified", "address", "gender", "shipping_address",
                                        "given_name", "family_name", "email"])
        XCTAssertEqual((json["shipping_address"] as? [String: String])?["recipient"], "Erika Mustermann")
        XCTAssertEqual((json["address"] as? [String: String])?["postal_code"], "10115")
        XCTAssertEqual("\(info)", info.description, "string interpolation prints the JSON, as netID's does")
        XCTAssertTrue(info.description.hasPrefix(#"{"address":{"country":"DE","#), "keys are sorted, so the text is stable")
        let decoded = try JSONDecoder().decode(UserInfo.self, from: JSONEncoder().encode(info))
        XCTAssertEqual(decoded, info)
        XCTAssertEqual(decoded.shippingAddress?.recipient, "Erika Mustermann")

        let minimal = try JSONDecoder().decode(UserInfo.self, from: Data(#"{"sub":"max"}"#.utf8))
        XCTAssertEqual(minimal.sub, "max")
        XCTAssertNil(minimal.email)
        XCTAssertEqual(minimal.description, #"{"sub":"max"}"#)
        XCTAssertThrowsError(try JSONDecoder().decode(UserInfo.self, from: Data(#"{"email":"x@example.com"}"#.utf8)), "sub is required")
    }

    func testPermissionModelsHaveNetIdsInitializersAndJSON() throws {
        let identifiers = SubjectIdentifiers(tpId: "t1", syncId: "s1", eTpId: "e1")
        let consent = NetIdPrivacySettingsIdConsent(status: .VALID, changedAt: "2026-01-01T00:00:00Z")
        let tcString = NetIdPrivacySettingsIabTcString(value: "CPtest", changedAt: "2026-01-02T00:00:00Z")
        let settings = NetIdPrivacySettings(idConsent: consent, iabTcString: tcString)
        let read = PermissionReadResponse(statusCode: .PERMISSIONS_FOUND, subjectIdentifiers: identifiers, netIdPrivacySettings: settings)

        let wire = """
            {"status_code":"PERMISSIONS_FOUND","subject_identifiers":{"tpid":"t1","sync_id":"s1","etpid":"e1"},
             "netid_privacy_settings":{"idconsent":{"status":"VALID","changed_at":"2026-01-01T00:00:00Z"},
                                       "iab_tcstring":{"value":"CPtest","changed_at":"2026-01-02T00:00:00Z"}}}
            """
        XCTAssertEqual(try JSONDecoder().decode(PermissionReadResponse.self, from: Data(wire.utf8)), read)
        XCTAssertEqual(try jsonObject(read.description) as NSDictionary, try jsonObject(wire) as NSDictionary)
        XCTAssertEqual(try jsonObject(identifiers.description) as NSDictionary, ["tpid": "t1", "sync_id": "s1", "etpid": "e1"])
        XCTAssertEqual(try jsonObject(consent.description) as NSDictionary, ["status": "VALID", "changed_at": "2026-01-01T00:00:00Z"])
        XCTAssertEqual(try jsonObject(tcString.description) as NSDictionary, ["value": "CPtest", "changed_at": "2026-01-02T00:00:00Z"])
        XCTAssertEqual(try jsonObject(settings.description).allKeys.count, 2)

        let update = NetIdPermissionUpdate(idConsent: .INVALID, iabTc: "CPtest")
        XCTAssertEqual(try jsonObject(update.description) as NSDictionary, ["idconsent": "INVALID", "iab_tc_string": "CPtest"])
        var partial = NetIdPermissionUpdate(idConsent: nil, iabTc: nil)
        partial.idConsent = .VALID
        XCTAssertEqual(partial.description, #"{"idconsent":"VALID"}"#)

        let written = PermissionUpdateResponse(subjectIdentifiers: identifiers)
        XCTAssertEqual(try JSONDecoder().decode(PermissionUpdateResponse.self, from: Data(written.description.utf8)), written)
        let refused = try JSONDecoder().decode(PermissionUpdateErrorResponse.self, from: Data(#"{"status_code":"TAPP_ERROR"}"#.utf8))
        XCTAssertEqual(refused.statusCode, .TAPP_ERROR)
        XCTAssertEqual(PermissionUpdateErrorResponse(statusCode: .NO_TPID).description, #"{"status_code":"NO_TPID"}"#)
        let unknown = try JSONDecoder().decode(PermissionUpdateErrorResponse.self, from: Data(#"{"status_code":"SOMETHING_NEW"}"#.utf8))
        XCTAssertEqual(unknown.statusCode, .UNKNOWN, "a status this version does not know is UNKNOWN, not a decoding failure")
    }

    func testConfigurationsAndErrorsHaveNetIdsShape() {
        var login = LoginLayerConfig()
        XCTAssertNil(login.headlineText)
        login.loginText = "Weiter mit %s"
        let permission = PermissionLayerConfig(logoName: "logo", headlineText: nil, legalText: "Legal", continueText: nil)
        let config = NetIdConfig(clientId: "client", redirectUri: "https://example.com/redirect", claims: nil, promptWeb: "consent",
                                 loginLayerConfig: login, permissionLayerConfig: permission)
        XCTAssertEqual(config.loginLayerConfig?.loginText, "Weiter mit %s")
        XCTAssertEqual(config.permissionLayerConfig?.logoName, "logo")
        XCTAssertNil(config.permissionLayerConfig?.continueText)
        XCTAssertEqual(config.issuer.absoluteString, "https://broker.netid.de", "netID's broker unless told otherwise")

        var error = NetIdError(code: .NoAuth, process: .UserInfo)
        error.msg = "details"
        XCTAssertEqual(error.code.rawValue + "/" + label(error.process) + "/" + (error.msg ?? ""), "NoAuth/userinfo/details")
    }

    // MARK: The service

    func testTheServiceIsAnOpenNSObjectWithNetIdsLayerCalls() {
        // Compile-time: the shared instance, the initializer and a subclass, each an NSObject.
        let _: NSObject = NetIdService.sharedInstance
        let _: NSObject = NetIdService()
        let service: NetIdService = AppNetIdService()
        XCTAssertNil(service.getNetIdConfig())

        XCTAssertEqual(service.getLayerStyle(), .Solid)
        service.setLayerStyle(.Outline)
        XCTAssertEqual(service.getLayerStyle(), .Outline)
        service.setButtonStyle(.GreenSolid)
        XCTAssertEqual(service.getCountOfAccountProviderApps(), 0)
        XCTAssertEqual(service.getKeysForAccountProviderApps(), [])

        // Compile-time: the protocols netID's service conforms to.
        let _: PermissionManagerDelegate = service
        let _: AuthorizationViewDelegate = service
        let _: TokenUtil.Type = TokenUtil.self
        let _: Reachability.Type = Reachability.self

        let handler = AppLayerHandler()
        let delegates: [AuthorizationViewDelegate] = [handler]
        for delegate in delegates {
            delegate.didTapContinue(universalLink: nil, presentingViewController: NSObject(), authFlow: .Login)
            delegate.didTapDismiss()
        }
        let receivers: [PermissionManagerDelegate] = [handler]
        receivers.first?.didUpdatePermission(SubjectIdentifiers(tpId: "t", syncId: "s", eTpId: "e"))
        XCTAssertEqual(handler.events, ["continue Login", "dismiss", "updated"])
    }

    private func jsonObject(_ text: String) throws -> NSDictionary {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }
}

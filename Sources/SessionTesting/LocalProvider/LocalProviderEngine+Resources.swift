import Foundation
import LoopbackHTTP
import SessionCore
import SessionPermissions

/// UserInfo (OIDC Core §5.3), revocation (RFC 7009) and the netID-style permission center.
extension LocalProviderEngine {
    func userInfo(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard request.method == "GET" || request.method == "POST" else { return .text("Method not allowed", status: 405) }
        let grant: Grant
        switch authorizedGrant(request, at: .userInfo) {
        case .refused(let response): return response
        case .passed(let found): grant = found
        }
        guard grant.scopes.contains("openid") else {
            return Self.bearerError("insufficient_scope", "the token lacks scope openid", status: 403)
        }
        guard let user = user(grant.subject) else { return Self.bearerError("invalid_token", "the user no longer exists", status: 401) }
        var claims: [String: Any] = ["sub": user.subject, "email": user.email, "email_verified": true,
                                     "given_name": user.givenName, "family_name": user.familyName]
        if let birthdate = user.birthdate { claims["birthdate"] = birthdate }
        if let picture = user.picture { claims["picture"] = picture.absoluteString }
        return Self.json(claims, headers: grant.jkt == nil ? [] : nonceHeaders)
    }

    func revoke(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard request.method == "POST" else { return Self.oauthError("invalid_request", "the revocation endpoint takes POST", status: 405) }
        let form = Self.firstValues(request.formItems)
        let clientID: String
        switch authenticateClient(request, form: form) {
        case .client(let id): clientID = id
        case .refused(let refusal): return refusal
        }
        guard let token = form["token"], !token.isEmpty else { return Self.oauthError("invalid_request", "token is missing") }
        return withState { state in
            // RFC 7009 §2.2: an unknown token is answered with 200 as well.
            if let refresh = state.refreshTokens[token] {
                guard Exact.equal(refresh.grant.clientID, clientID) else { return Self.oauthError("unauthorized_client", "the token belongs to another client") }
                // Revoking a refresh token ends its whole grant, access tokens included (§2.1).
                state.revokedFamilies.insert(refresh.grant.family)
            } else if let access = state.accessTokens[token] {
                guard Exact.equal(access.grant.clientID, clientID) else { return Self.oauthError("unauthorized_client", "the token belongs to another client") }
                state.accessTokens[token] = nil
            }
            return HTTPServerResponse(status: 200)
        }
    }

    func readPermissions(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (grant, identifiers): (Grant, [IdentifierOption])
        switch permissionRequest(request, method: "GET", answering: PermissionCenterEndpoints.MediaType.userStatus) {
        case .refused(let response): return response
        case .passed(let found): (grant, identifiers) = found
        }
        guard let record = withState({ $0.permissions[grant.subject] }) else {
            return Self.permissionStatus("PERMISSIONS_NOT_FOUND", status: 404)
        }
        var settings: [String: Any] = [:]
        if let consent = record.idConsent {
            settings["idconsent"] = ["status": consent.rawValue, "changed_at": record.changedAt ?? ""]
        }
        if let tcString = record.iabTcString {
            settings["iab_tcstring"] = ["value": tcString, "changed_at": record.iabTcStringChangedAt ?? ""]
        }
        var body: [String: Any] = ["status_code": "PERMISSIONS_FOUND", "netid_privacy_settings": settings]
        if !identifiers.isEmpty { body["subject_identifiers"] = Self.subjectIdentifiers(grant.subject, identifiers) }
        return Self.json(body, headers: [("Content-Type", PermissionCenterEndpoints.MediaType.userStatus)])
    }

    func writePermissions(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (grant, identifiers): (Grant, [IdentifierOption])
        switch permissionRequest(request, method: "POST", answering: PermissionCenterEndpoints.MediaType.subjectStatus) {
        case .refused(let response): return response
        case .passed(let found): (grant, identifiers) = found
        }
        // The center reads only its versioned media type, as it answers only in its own.
        guard Self.mediaType(request.header("Content-Type")) == PermissionCenterEndpoints.MediaType.permissions else {
            return Self.permissionStatus("UNSUPPORTED_MEDIA_TYPE", status: 415)
        }
        guard !request.body.isEmpty else { return Self.permissionStatus("NO_REQUEST_BODY", status: 400) }
        guard let update = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            return Self.permissionStatus("JSON_PARSE_ERROR", status: 400)
        }
        let consent = (update["idconsent"] as? String).flatMap(PermissionStatus.init(rawValue:))
        let tcString = update["iab_tc_string"] as? String
        let unknownValue = update["idconsent"] != nil && consent == nil || update["iab_tc_string"] != nil && tcString == nil
        guard !unknownValue, consent != nil || tcString != nil else { return Self.permissionStatus("PERMISSION_PARAMETERS_ERROR", status: 400) }
        let changedAt = ISO8601DateFormatter().string(from: options.clock.now())
        withState { state in
            var record = state.permissions[grant.subject] ?? LocalProvider.PermissionRecord()
            if let consent { record.idConsent = consent; record.changedAt = changedAt }
            if let tcString { record.iabTcString = tcString; record.iabTcStringChangedAt = changedAt }
            state.permissions[grant.subject] = record
        }
        return Self.json(["subject_identifiers": Self.subjectIdentifiers(grant.subject, identifiers)],
                         headers: [("Content-Type", PermissionCenterEndpoints.MediaType.subjectStatus)])
    }

    // MARK: Helpers

    /// The grant of the access token `request` presents to `endpoint`: a Bearer token as RFC 6750
    /// has it, a DPoP-bound one only as `DPoP` with a proof of its key (RFC 9449 §7).
    func authorizedGrant(_ request: HTTPServerRequest, at endpoint: Endpoint) -> Checked<Grant> {
        guard let (scheme, token) = Self.presentedToken(request) else {
            var challenges = [(name: "WWW-Authenticate", value: #"Bearer realm="local-provider""#)]
            if options.offersDPoP { challenges.append((name: "WWW-Authenticate", value: #"DPoP algs="ES256""#)) }
            return .refused(HTTPServerResponse(status: 401, headers: challenges))
        }
        let now = options.clock.now()
        let dpop = Exact.equal(scheme, "DPoP")
        guard let grant = withState({ $0.accessGrant(for: token, at: now) }) else {
            let why = "the access token is invalid, expired or revoked"
            return .refused(dpop ? Self.dpopChallenge("invalid_token", why) : Self.bearerError("invalid_token", why, status: 401))
        }
        guard let bound = grant.jkt else {
            return dpop ? .refused(Self.dpopChallenge("invalid_token", "the access token is not DPoP-bound")) : .passed(grant)
        }
        guard dpop else { return .refused(Self.bearerError("invalid_token", "the access token is DPoP-bound: present it as DPoP with a proof", status: 401)) }
        switch dpopProof(request, at: endpoint, accessToken: token) {
        case .refused(let refusal): return .refused(refusal)
        case .passed(nil): return .refused(Self.dpopChallenge("invalid_dpop_proof", "a DPoP-bound token needs a DPoP proof"))
        case .passed(let jkt?):
            guard Exact.equal(jkt, bound) else { return .refused(Self.dpopChallenge("invalid_token", "the proof's key is not the one the token is bound to")) }
            return .passed(grant)
        }
    }

    /// The grant and the identifiers asked for, after the checks the permission center makes,
    /// with errors in its own format.
    /// `answering` is the versioned media type of the answer, which `Accept` must name (or `*/*`).
    private func permissionRequest(_ request: HTTPServerRequest, method: String, answering mediaType: String) -> Checked<(Grant, [IdentifierOption])> {
        guard request.method == method else { return .refused(Self.permissionStatus("PERMISSION_PARAMETERS_ERROR", status: 405)) }
        let accepted = (request.header("Accept") ?? "*/*").split(separator: ",").map { Self.mediaType(String($0)) }
        guard accepted.contains(mediaType) || accepted.contains("*/*") else {
            return .refused(Self.permissionStatus("NOT_ACCEPTABLE", status: 406))
        }
        guard let token = Self.bearerToken(request) else { return .refused(Self.permissionStatus("NO_TOKEN", status: 401)) }
        let now = options.clock.now()
        guard let grant = withState({ $0.permissionGrant(for: token, at: now) }) else {
            return .refused(Self.permissionStatus("TOKEN_ERROR", status: 401))
        }
        guard let identifiers = Self.requestedIdentifiers(request) else {
            return .refused(Self.permissionStatus("PERMISSION_PARAMETERS_ERROR", status: 400))
        }
        return .passed((grant, identifiers))
    }

    private static func bearerError(_ error: String, _ description: String, status: Int) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: [
            ("WWW-Authenticate", #"Bearer realm="local-provider", error="\#(error)", error_description="\#(description)""#),
        ])
    }

    /// A media type without its parameters, lower-cased.
    private static func mediaType(_ field: String?) -> String? {
        field.map { $0.split(separator: ";", maxSplits: 1).first.map(String.init) ?? "" }?.trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static func permissionStatus(_ code: String, status: Int) -> HTTPServerResponse {
        json(["status_code": code], status: status)
    }

    /// The identifiers named in `q.identifier.in`; nil when a name is unknown.
    private static func requestedIdentifiers(_ request: HTTPServerRequest) -> [IdentifierOption]? {
        guard let list = firstValues(request.queryItems)["q.identifier.in"] else { return [] }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let options = names.compactMap(IdentifierOption.init(rawValue:))
        return options.count == names.count ? options : nil
    }

    /// Stable pseudonymous identifiers derived from the subject.
    private static func subjectIdentifiers(_ subject: String, _ options: [IdentifierOption]) -> [String: String] {
        var result: [String: String] = [:]
        for option in options {
            switch option {
            case .tagProtocolIdentifier: result["tpid"] = "tpid-\(subject)"
            case .synchronizationIdentifier: result["sync_id"] = "sync-\(subject)"
            case .encryptedTagProtocolIdentifier: result["etpid"] = "etpid-\(subject)"
            }
        }
        return result
    }
}

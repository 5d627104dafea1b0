import Foundation
import SessionCore
import SessionFacade

extension GrabIdPartner {
    /// What the session's ID token says. GrabID asked its token-info endpoint; here the token
    /// SessionService validated at sign-in is read. Errors (domain `getIdTokenInfo`), as GrabID's:
    /// `invalidIdToken` without an ID token or once it has expired, `invalidNonce` when the session
    /// has no nonce or the token carries another.
    public func getIdTokenInfo(loginSession: LoginSession, completion: @escaping (IdTokenInfo?, GrabIdPartnerError?) -> Void) {
        let outcome: (IdTokenInfo?, GrabIdPartnerError?)
        let claims = loginSession.withValues { $0.idTokenClaims }
        if loginSession.idToken != nil, !claims.isEmpty {
            let info = IdTokenInfo(claims: claims)
            if loginSession.nonce == nil || info.nonce != loginSession.nonce {
                outcome = (nil, GrabIdPartnerError(.invalidNonce, .getIdTokenInfo))
            } else if (info.expiration ?? .distantPast) <= clock.now() {
                outcome = (nil, GrabIdPartnerError(.invalidIdToken, .getIdTokenInfo, cause: SessionError(.idTokenExpired, process: .authentication,
                                                                                                    message: "the ID token has expired")))
            } else {
                outcome = (info, nil)
            }
        } else {
            outcome = (nil, GrabIdPartnerError(.invalidIdToken, .getIdTokenInfo))
        }
        let result = CallbackQueueBound((completion, outcome))
        callbackQueue.async { result.value.0(result.value.1.0, result.value.1.1) }
    }

    /// Ends the session locally (no revocation, as in GrabID): the login session forgets its
    /// tokens and its login page is closed; the completion, when given, gets nil, or
    /// `logoutFailed` (domain `logout`) when there was no stored session.
    public func logout(loginSession: LoginSession, completion: ((GrabIdPartnerError?) -> Void)? = nil) {
        let done = GrabIdPartnerState.Completion(completion ?? { _ in })
        loginSession.adopt(nil)
        _ = loginCompleted(loginSession: loginSession)
        // In turn, as GrabID's logout followed the calls before it: a login made just before ends first.
        entry(for: loginSession).service.endSessionInTurn { result in
            loginSession.adopt(nil)
            switch result {
            case .success(true): done.value(nil)
            case .success(false): done.value(GrabIdPartnerError(.logoutFailed, .logout))
            case .failure(let error): done.value(GrabIdPartnerError(error, domain: .logout))
            }
        }
    }

    /// True when the session has an access token whose expiry is further away than the refresh
    /// leeway, by its service's clock: a token this says is valid is used without a refresh.
    /// GrabID's rule was "an expiry still to come"; no expiry is still no valid token.
    public func isValidAccessToken(loginSession: LoginSession) -> Bool {
        guard !(loginSession.accessToken ?? "").isEmpty, let expiresAt = loginSession.accessTokenExpiresAt,
              let service = existingService(for: loginSession) else { return false }
        return service.isFresh(expiresAt: expiresAt)
    }

    /// True, as in GrabID, when the information has a nonce and a token ID, has not expired, and
    /// is past its `notValidBefore`.
    public func isValidIdToken(idTokenInfo: IdTokenInfo) -> Bool {
        let now = clock.now()
        guard idTokenInfo.nonce != nil, idTokenInfo.tokenId != nil, let expiration = idTokenInfo.expiration else { return false }
        return expiration > now && now >= (idTokenInfo.notValidBefore ?? now)
    }
}

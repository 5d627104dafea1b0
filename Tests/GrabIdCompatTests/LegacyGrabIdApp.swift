// Written the way a GrabID partner app is written (Swift 5 language mode, only GrabIdCompat
// imported): if a GrabIdCompat signature drifts from GrabID's, this file stops compiling.
import Foundation
import GrabIdCompat

final class LegacyGrabIdApp {
    let grabIdPartner: GrabIdPartnerProtocol
    var loginSession: LoginSession?
    var idTokenInfo: IdTokenInfo?
    private let presentingViewController = NSObject()
    private let onEvent: (String, String) -> Void

    init(grabIdPartner: GrabIdPartnerProtocol? = GrabIdPartner.sharedInstance(), onEvent: @escaping (String, String) -> Void) {
        self.grabIdPartner = grabIdPartner!
        self.onEvent = onEvent
    }

    private func describe(_ error: GrabIdPartnerError?) -> String {
        guard let error = error else { return "nil" }
        return "\(error.domain)/\(error.code)"
    }

    private func record(_ name: String, _ payload: String) {
        onEvent(name, payload + (Thread.isMainThread ? "" : " OFF-MAIN"))
    }

    func signInWithLoginConfig() {
        grabIdPartner.loadLoginSession() { [weak self] (loginSession, error) in
            guard let self = self else { return }
            self.loginSession = loginSession
            if let error = error {
                self.record("loadLoginSession", self.describe(error))
            } else if let loginSession = loginSession {
                self.record("loadLoginSession", "nil")
                self.grabIdPartner.login(loginSession: loginSession, presentingViewController: self.presentingViewController) { [weak self] (error) in
                    guard let self = self else { return }
                    self.record("login", self.describe(error))
                }
            }
        }
    }

    func signIn(with loginSession: LoginSession) {
        self.loginSession = loginSession
        grabIdPartner.login(loginSession: loginSession, presentingViewController: presentingViewController) { [weak self] (error) in
            guard let self = self else { return }
            self.record("login", self.describe(error))
        }
    }

    func application(open url: URL) {
        guard let loginSession = loginSession else { return }
        grabIdPartner.exchangeToken(loginSession: loginSession, url: url) { [weak self] (error) in
            guard let self = self else { return }
            if !self.grabIdPartner.loginCompleted(loginSession: loginSession) {
                self.record("loginCompleted", "false")
            }
            self.record("exchangeToken", self.describe(error))
        }
    }

    func loadIdTokenInfo() {
        guard let loginSession = loginSession else { return }
        grabIdPartner.getIdTokenInfo(loginSession: loginSession) { [weak self] (idTokenInfo, error) in
            guard let self = self else { return }
            self.idTokenInfo = idTokenInfo
            let valid = idTokenInfo.map { self.grabIdPartner.isValidIdToken(idTokenInfo: $0) } ?? false
            self.record("getIdTokenInfo", "\(self.describe(error)) user=\(idTokenInfo?.partnerUserId ?? "-") valid=\(valid)")
        }
    }

    func closeLogin() {
        guard let loginSession = loginSession else { return }
        _ = grabIdPartner.loginCompleted(loginSession: loginSession) { [weak self] in
            self?.record("loginCompleted", "closed")
        }
    }

    var hasValidAccessToken: Bool {
        guard let loginSession = loginSession else { return false }
        return grabIdPartner.isValidAccessToken(loginSession: loginSession)
    }

    func logout() {
        guard let loginSession = loginSession else { return }
        grabIdPartner.logout(loginSession: loginSession) { [weak self] (error) in
            guard let self = self else { return }
            self.record("logout", self.describe(error))
        }
    }
}

// Written the way a GrabID partner app is written (Swift 5 language mode, only GrabIdCompat
// imported): a view-controller-like object that loads or creates a login session, logs in, hands
// redirects to exchangeToken, reads the ID-token information and logs out. If a GrabIdCompat
// signature drifts from GrabID 1.0.6's, this file stops compiling.
import Foundation
import GrabIdCompat

final class LegacyGrabIdApp: NSObject {
    let grabIdPartner: GrabIdPartnerProtocol
    private(set) var loginSession: LoginSession?
    var idTokenInfo: IdTokenInfo?
    private let presentingViewController = NSObject()
    private let onEvent: (String, String) -> Void

    init(grabIdPartner: GrabIdPartnerProtocol? = GrabIdPartner.sharedInstance(), onEvent: @escaping (String, String) -> Void) {
        self.grabIdPartner = grabIdPartner!
        self.onEvent = onEvent
    }

    /// The message the app would show for the last error, as GrabID's example app does.
    private(set) var lastMessage: String?

    private func describe(_ error: GrabIdPartnerError?) -> String {
        guard let error = error else { return "nil" }
        lastMessage = error.localizeMessage ?? GrabIdPartnerLocalization.somethingWentWrong.rawValue
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
            } else {
                self.record("loadLoginSession", "nil")
                self.login(loginSession: loginSession)
            }
        }
    }

    func signIn(with loginSession: LoginSession) {
        self.loginSession = loginSession
        login(loginSession: loginSession)
    }

    private func login(loginSession: LoginSession?) {
        guard let loginSession = loginSession else { return }
        grabIdPartner.login(loginSession: loginSession, presentingViewController: presentingViewController) { [weak self] (error) in
            guard let self = self else { return }
            self.record("login", self.describe(error))
        }
    }

    /// The app delegate's `application(_:open:options:)`.
    func application(open url: URL) {
        guard let loginSession = loginSession else { return }
        grabIdPartner.exchangeToken(loginSession: loginSession, url: url) { [weak self] (error) in
            guard let self = self else { return }
            let closed = self.grabIdPartner.loginCompleted(loginSession: loginSession)
            self.record("exchangeToken", "\(self.describe(error)) closed=\(closed)")
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
        let closed = grabIdPartner.loginCompleted(loginSession: loginSession) { [weak self] in
            self?.record("loginCompleted", "done")
        }
        DispatchQueue.main.async { [weak self] in self?.record("loginCompleted", "closed=\(closed)") }
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

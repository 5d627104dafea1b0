import Foundation
import SessionCore
import SessionFacade

extension GrabIdPartner {
    /// Signs in. A stored session that is still usable (refreshed first when it is about to
    /// expire) needs no page: the completion gets nil at once. Otherwise the login page is shown:
    /// without ``authorizationAgent`` its URL goes to ``authorizationURLHandler``, the completion
    /// gets nil once the page is on its way, and the app hands the redirect to
    /// ``exchangeToken(loginSession:url:completion:)``; with an agent, the completion waits for
    /// the whole sign-in. Errors have domain `authorization`; `invalidConfiguration` when neither
    /// an agent nor a URL handler is set.
    public func login(loginSession: LoginSession, presentingViewController: GrabIdPresentationAnchor,
                      completion: @escaping (GrabIdPartnerError?) -> Void) {
        let done = OnceCompletion(completion)
        let entry = entry(for: loginSession)
        let agent = authorizationAgent
        let queue = callbackQueue
        let state = state
        guard agent != nil || authorizationURLHandler != nil else {
            let error = GrabIdPartnerError(.invalidConfiguration, .authorization, cause: SessionError(
                .invalidConfiguration, process: .authentication, message: "set an authorizationAgent or an authorizationURLHandler to show the login page"))
            return queue.async { done.call(error) }
        }
        entry.service.currentTokens { stored in
            switch stored {
            case .success(let tokens):
                loginSession.adopt(tokens)
                return done.call(nil)
            case .failure(let error) where error.code != .notAuthenticated && error.code != .reauthenticationRequired:
                return done.call(GrabIdPartnerError(state.cause(error, in: entry), domain: .authorization))
            case .failure:
                break
            }
            // The session takes the login's security values as GrabID's did when it built the URL,
            // and, without an agent, the login ends there, as GrabID's did once its page was shown.
            let observed = ObservedAuthorizationAgent(agent ?? entry.service.externalRedirectAgent) { request in
                loginSession.begin(request)
                entry.withLock { entryState in
                    entryState.loginPageOpen = true
                    if agent == nil { entryState.pagePresented = { done.call(nil) } }
                }
            }
            entry.service.getAuthorization(flow: .login, agent: observed, tokensCompletion: { result in
                if case .success(let tokens) = result { loginSession.adopt(tokens) }
                let exchange = entry.withLock { entryState in
                    defer { entryState.pendingExchange = nil }
                    return entryState.pendingExchange
                }
                let error = result.failure.map { state.cause($0, in: entry) }
                exchange?.value(error.map { GrabIdPartnerError($0, domain: .exchangeToken) })
                done.call(error.map { GrabIdPartnerError($0, domain: .authorization) })
            })
        }
    }

    /// Hands the redirect the app received to the login in progress, which exchanges its code.
    /// The completion gets nil once the session has its tokens; `securityValidationFailed`
    /// (domain `exchangeToken`) for a URL that is not that login's redirect, that carries an
    /// error or another `state`; the token endpoint's or the ID token's error otherwise.
    public func exchangeToken(loginSession: LoginSession, url: URL, completion: @escaping (GrabIdPartnerError?) -> Void) {
        let done = GrabIdPartnerState.Completion(completion)
        // Registered before resuming, so that the login's end finds it.
        let entry = state.withLock { $0.entries[ObjectIdentifier(loginSession)] }.flatMap { entry in
            entry.withLock { entryState -> GrabIdPartnerState.Entry? in
                guard entryState.session === loginSession, entryState.pendingExchange == nil else { return nil }
                entryState.pendingExchange = done
                return entry
            }
        }
        guard let entry, entry.service.resumeSession(url) else {
            if let entry { entry.withLock { $0.pendingExchange = nil } }
            return deliver(done, GrabIdPartnerError(.securityValidationFailed, .exchangeToken))
        }
        loginSession.code = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value
    }

    /// Closes the login page: true when one was shown since the last call (GrabID dismissed its
    /// Safari view then), false otherwise. `completion` runs on the callback queue either way.
    public func loginCompleted(loginSession: LoginSession) -> Bool {
        loginCompleted(loginSession: loginSession, completion: nil)
    }

    /// As ``loginCompleted(loginSession:)``, then calls `completion` on the callback queue.
    public func loginCompleted(loginSession: LoginSession, completion: (() -> Void)?) -> Bool {
        let entry = state.withLock { $0.entries[ObjectIdentifier(loginSession)] }
        let wasOpen = entry?.withLock { entryState -> Bool in
            guard entryState.session === loginSession else { return false }
            defer { entryState.loginPageOpen = false }
            return entryState.loginPageOpen
        } ?? false
        if let completion {
            let closed = CallbackQueueBound(completion)
            callbackQueue.async { closed.value() }
        }
        return wasOpen
    }
}

extension Result {
    /// The error of a failure, nil for a success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

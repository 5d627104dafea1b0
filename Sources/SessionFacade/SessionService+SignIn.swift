import Foundation
import SessionCore

/// Signing in: in a browser through an agent, resumed from outside, or on another device.
extension SessionService {
    /// Signs in for `flow` through `agent` (or the service's agent, or the external-resume path).
    ///
    /// Outcome: `didFinishAuthentication(accessToken)`, `didCancelAuthentication` when the user
    /// or ``cancelAuthorization()`` cancelled, or `didFinishAuthenticationWithError`.
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil,
                                 completion: (@Sendable (Result<String, SessionError>) -> Void)? = nil) {
        let authorization = AuthorizationSession()
        perform(.authentication, completion, authorization: authorization) { [self] in
            await runAuthorization(authorization, flow: flow, agent: agent).map(\.accessToken)
        }
    }

    /// ``getAuthorization(flow:agent:completion:)`` whose completion gets the session's tokens,
    /// for callers that need more than the access token. Listeners hear the same outcome.
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil,
                                 tokensCompletion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        let authorization = AuthorizationSession()
        perform(.signIn, tokensCompletion, authorization: authorization) { [self] in
            await runAuthorization(authorization, flow: flow, agent: agent)
        }
    }

    /// ``getAuthorization(flow:agent:tokensCompletion:)``, awaited: the session's tokens.
    /// - Throws: the authorization's `SessionError` (`cancelled` when the user or
    ///   ``cancelAuthorization()`` cancelled).
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil) async throws -> SessionTokens {
        try await awaiting { getAuthorization(flow: flow, agent: agent, tokensCompletion: $0) }
    }

    /// Signs in for `flow` on another device (RFC 8628): the user opens a URL on any device with a
    /// browser and enters a code, while this one polls the provider.
    ///
    /// Outcome: first, once the provider has given the code, `didReceiveDeviceAuthorization`
    /// on the listeners, then `codeHandler` (C16); then, as for
    /// ``getAuthorization(flow:agent:completion:)``, `didFinishAuthentication(accessToken)`,
    /// `didCancelAuthentication` when ``cancelAuthorization()`` cancelled it, or
    /// `didFinishAuthenticationWithError` (`accessDenied`, `expiredToken`, ...). `endSession`
    /// ends it as it ends a browser sign-in.
    public func getDeviceAuthorization(flow: AuthFlow = .login, codeHandler: (@Sendable (DeviceAuthorization) -> Void)? = nil,
                                       completion: (@Sendable (Result<String, SessionError>) -> Void)? = nil) {
        let authorization = AuthorizationSession()
        perform(.authentication, completion, authorization: authorization) { [self] in
            await runDeviceAuthorization(authorization, flow: flow, codeHandler: codeHandler).map(\.accessToken)
        }
    }

    /// ``getDeviceAuthorization(flow:codeHandler:completion:)`` whose completion gets the
    /// session's tokens. Listeners hear the same outcome.
    public func getDeviceAuthorization(flow: AuthFlow = .login, codeHandler: (@Sendable (DeviceAuthorization) -> Void)? = nil,
                                       tokensCompletion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        let authorization = AuthorizationSession()
        perform(.signIn, tokensCompletion, authorization: authorization) { [self] in
            await runDeviceAuthorization(authorization, flow: flow, codeHandler: codeHandler)
        }
    }

    /// ``getDeviceAuthorization(flow:codeHandler:tokensCompletion:)``, awaited: the session's
    /// tokens, once the user approved on the other device. `codeHandler` gets the code first.
    /// - Throws: the sign-in's `SessionError` (`accessDenied`, `expiredToken`, `cancelled`, ...).
    public func getDeviceAuthorization(flow: AuthFlow = .login,
                                       codeHandler: (@Sendable (DeviceAuthorization) -> Void)? = nil) async throws -> SessionTokens {
        try await awaiting { getDeviceAuthorization(flow: flow, codeHandler: codeHandler, tokensCompletion: $0) }
    }

    /// Hands the redirect URL the app received to the authorization waiting for it (C13).
    /// - Returns: true when an authorization waits on the external-resume path and `url`
    ///   addresses its redirect URI; the authorization then completes with it. Otherwise false,
    ///   and nothing changes; a second resume returns false.
    @discardableResult
    public func resumeSession(_ url: URL) -> Bool {
        runningAuthorization?.resume(with: url) ?? false
    }

    /// Cancels the authorization in progress: it reports `didCancelAuthentication(cancelled)`
    /// (C14), unless it had already succeeded. Does nothing when none is in progress.
    /// - Returns: true when an authorization was in progress (its outcome is still to come).
    @discardableResult
    public func cancelAuthorization() -> Bool {
        runningAuthorization?.cancel() ?? false
    }

    // MARK: The operations' bodies

    private func runAuthorization(_ authorization: AuthorizationSession, flow: AuthFlow,
                                  agent: AuthorizationAgent?) async -> Result<SessionTokens, SessionError> {
        let agent = agent ?? defaultAgent ?? externalRedirectAgent
        return await withSignInClient { client in
            try await authorization.runOnAttachedTask(on: client, scopes: flow.scopes(with: client.configuration), agent: agent).get()
        }
    }

    private func runDeviceAuthorization(_ authorization: AuthorizationSession, flow: AuthFlow,
                                        codeHandler: (@Sendable (DeviceAuthorization) -> Void)?) async -> Result<SessionTokens, SessionError> {
        let announce = announcer(codeHandler)
        let signIn: @Sendable (SessionClient) async throws -> SessionTokens = { client in
            let device = try await client.beginDeviceAuthorization(scopes: flow.scopes(with: client.configuration))
            announce(device)
            return try await client.completeDeviceAuthorization(device)
        }
        return await withSignInClient { client in try await authorization.runOnAttachedTask(on: client, signIn).get() }
    }

    /// Delivers a device sign-in's code to the listeners, then to `codeHandler`, in line with
    /// every other delivery (C16).
    private func announcer(_ codeHandler: (@Sendable (DeviceAuthorization) -> Void)?) -> @Sendable (DeviceAuthorization) -> Void {
        let line = self.line
        return { device in
            var complete: (@Sendable () -> Void)?
            if let codeHandler { complete = { codeHandler(device) } }
            line.deliver([Delivery(notify: { $0.didReceiveDeviceAuthorization(device) }, complete: complete)])
        }
    }

    /// The handle of the authorization that runs now, if one does.
    var runningAuthorization: AuthorizationSession? { line.runningAuthorization }
}

extension Outcome where Value == String {
    /// `didFinishAuthentication(accessToken)`, `didCancelAuthentication` when the user or the app
    /// cancelled, or `didFinishAuthenticationWithError`.
    static var authentication: Outcome { Outcome(.authorization, notice: authenticationNotice) }

    /// The same outcome for a switch between accounts.
    static var accountSwitch: Outcome { Outcome(.accounts, notice: authenticationNotice) }

    private static func authenticationNotice(_ result: Result<String, SessionError>) -> @Sendable (SessionServiceDelegate) -> Void {
        switch result {
        case .success(let token): { $0.didFinishAuthentication(token) }
        case .failure(let error) where error.code == .cancelled: { $0.didCancelAuthentication(error) }
        case .failure(let error): { $0.didFinishAuthenticationWithError(error) }
        }
    }
}

extension Outcome where Value == SessionTokens {
    /// A sign-in whose completion gets the whole ``SessionTokens``; listeners hear the access token.
    static var signIn: Outcome { Outcome<String>.authentication.pulledBack { $0.accessToken } }
}

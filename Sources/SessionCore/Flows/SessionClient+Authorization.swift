import Foundation

extension SessionClient {
    /// Builds a fresh authorization request for `scopes` and makes it the pending one (replacing
    /// any earlier request, whose response will then be refused).
    /// - Parameter scopes: the scopes to ask for, sent in this order; nil asks for the
    ///   configuration's ``SessionConfiguration/defaultScopes`` (`openid` and the configured
    ///   ones). Without `openid` no ID token is asked for or expected (an OAuth-only grant).
    /// - Throws: `invalidConfiguration` for an empty list or a value that is not a scope token;
    ///   discovery errors or `cryptoFailure`.
    public func beginAuthorization(scopes: [String]? = nil) async throws -> AuthorizationRequest {
        try await beginAuthorization(scopes: scopes, redirectURI: configuration.redirectURI)
    }

    /// As ``beginAuthorization(scopes:)``, for a redirect URI an agent chose.
    /// - Throws: `invalidConfiguration` unless `redirectURI` is the configured one or, when that
    ///   is an http loopback URI without a port, the same URI with a port (RFC 8252 §7.3).
    func beginAuthorization(scopes: [String]?, redirectURI: URL, stepUp: StepUp? = nil, subject: String? = nil) async throws -> AuthorizationRequest {
        let request = try await makeAuthorizationRequest(scopes: scopes, redirectURI: redirectURI, stepUp: stepUp, subject: subject)
        pending = request
        log(.info, "authorization started: \(request)")
        return request
    }

    /// A fresh request for `scopes` sent with `redirectURI`, not yet pending anywhere
    /// (``AuthorizationCodeFlow/makeRequest(scopes:redirectURI:bindingCode:stepUp:subject:)``).
    func makeAuthorizationRequest(scopes: [String]?, redirectURI: URL, bindingCode: Bool = true, stepUp: StepUp? = nil,
                                  subject: String? = nil) async throws -> AuthorizationRequest {
        try await AuthorizationCodeFlow(provider: provider).makeRequest(scopes: scopes, redirectURI: redirectURI, bindingCode: bindingCode,
                                                                        stepUp: stepUp, subject: subject)
    }

    /// True when an authorization is pending and `url` addresses its redirect URI. Does not
    /// check the response itself.
    public func isRedirectForPendingAuthorization(_ url: URL) -> Bool {
        guard let pending else { return false }
        return AuthorizationResponse.matches(url, redirectURI: pending.redirectURI)
    }

    /// Forgets the pending authorization, so its response will be refused. Does nothing when none
    /// is pending.
    public func cancelAuthorization() {
        if pending != nil { log(.info, "authorization cancelled") }
        pending = nil
    }

    /// Validates the redirect of the pending authorization, exchanges its code, validates the ID
    /// token, saves the tokens and makes them the current session.
    ///
    /// A URL for another redirect URI or with the wrong `state` is refused and leaves the pending
    /// request in place; any other outcome consumes it, so a response is used at most once.
    /// - Throws: a redirect error (`redirectURIMismatch`, `duplicateParameter`, `stateMismatch`,
    ///   `authorizationIssuerMismatch`, `authorizationIssuerMissing`, an OAuth error such as
    ///   `accessDenied`, `missingAuthorizationCode`), a token endpoint or ID-token error, or
    ///   `storageFailed`; all with process `authentication`.
    public func completeAuthorization(callbackURL: URL) async throws -> SessionTokens {
        let epoch = state.epoch
        do {
            let (request, response) = try await acceptResponse(callbackURL)
            return try await finishAuthorization(request, response, ifStill: epoch)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// Checks `callbackURL` as the pending request's response, the one time it is parsed. A URL
    /// for another redirect URI or with the wrong `state` leaves the request pending; any other
    /// outcome consumes it.
    private func acceptResponse(_ callbackURL: URL) async throws -> (AuthorizationRequest, AuthorizationResponse) {
        guard let request = pending else {
            throw SessionError(.stateMismatch, process: .authentication, message: "authorization response: no authorization is pending")
        }
        // Discovery first: the provider's metadata the exchange needs is then known to be there.
        _ = try await discover()
        do {
            let response = try AuthorizationResponse(callbackURL: callbackURL, request: request)
            consumePending(request)
            return (request, response)
        } catch let error as SessionError where error.code == .redirectURIMismatch || error.code == .stateMismatch {
            throw error
        } catch {
            consumePending(request)
            throw error
        }
    }

    /// Exchanges an accepted response's code (``AuthorizationCodeFlow``) and adopts the tokens,
    /// unless the session ended since `epoch`.
    func finishAuthorization(_ request: AuthorizationRequest, _ response: AuthorizationResponse,
                             ifStill epoch: SessionState.Epoch) async throws -> SessionTokens {
        let tokens = try await AuthorizationCodeFlow(provider: provider).exchange(response, for: request)
        try await adopt(tokens, ifStill: epoch)
        log(.info, "sign-in completed (\(request.scopes.joined(separator: " ")))")
        return tokens
    }

    /// Authorizes in one call: lets `agent` get ready to receive the redirect, builds the request
    /// for the redirect URI it names, lets it show the request and bring back the redirect, then
    /// completes it as ``completeAuthorization(callbackURL:)`` does. The agent hears what became
    /// of the redirect before the code is exchanged (``AgentSession/finish(_:)``).
    /// - Throws: `cancelled` when the agent reports that the user gave up (or the task is
    ///   cancelled), the agent's own `SessionError`, `authorizationAgentFailed` for any other
    ///   error of the agent, or any error of ``beginAuthorization(scopes:)`` and
    ///   ``completeAuthorization(callbackURL:)``.
    /// - Parameters:
    ///   - scopes: as for ``beginAuthorization(scopes:)``: nil asks for `openid` and the
    ///     configured scopes.
    ///   - agent: shows the provider's page and brings back the redirect (a browser and loopback
    ///     listener, the system's web authentication sheet, or your own).
    public func signIn(scopes: [String]? = nil, agent: AuthorizationAgent) async throws -> SessionTokens {
        try await signIn(scopes: scopes, agent: agent, stepUp: nil, subject: nil)
    }

    /// ``signIn(scopes:agent:)``, for a step-up with its parameters, by `subject` when given.
    func signIn(scopes: [String]?, agent: AuthorizationAgent, stepUp: StepUp?, subject: String?) async throws -> SessionTokens {
        let epoch = state.epoch
        do {
            let session = try await agentStep { try await agent.prepare(configuredRedirectURI: self.configuration.redirectURI, purpose: .signIn) }
            let request: AuthorizationRequest
            let callbackURL: URL
            do {
                request = try await beginAuthorization(scopes: scopes, redirectURI: session.redirectURI, stepUp: stepUp, subject: subject)
                do {
                    callbackURL = try await agentStep { try await session.present(request) }
                } catch {
                    consumePending(request)
                    throw error
                }
                guard Exact.equal(pending?.state, request.state) else {
                    throw SessionError.cancelled(detail: "or replaced by a newer one")
                }
            } catch {
                await session.finish(.abandoned)
                throw error
            }
            let response: AuthorizationResponse
            do {
                response = try await acceptResponse(callbackURL).1
            } catch {
                await session.finish((error as? SessionError).map(AgentOutcome.refused) ?? .abandoned)
                throw error
            }
            await session.finish(.accepted)
            return try await finishAuthorization(request, response, ifStill: epoch)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// Runs one of an agent's steps; its errors become ``SessionError``s: `cancelled` for a
    /// cancelled task, `authorizationAgentFailed` for an error of its own kind.
    func agentStep<T>(_ step: () async throws -> T) async throws -> T {
        do {
            return try await step()
        } catch let error as SessionError {
            throw error
        } catch is CancellationError {
            throw SessionError.cancelled()
        } catch {
            throw SessionError(.authorizationAgentFailed, process: .authentication, message: "the authorization agent failed with \(type(of: error))")
        }
    }

    private func consumePending(_ request: AuthorizationRequest) {
        if Exact.equal(pending?.state, request.state) { pending = nil }
    }
}

import Foundation

/// OpenID Connect RP-Initiated Logout 1.0: signing out of the provider too, so that its single
/// sign-on session does not sign the user straight back in.
extension SessionClient {
    /// Ends the session here as ``signOut(revokeTokens:)`` does, then ends the user's session at
    /// the provider: `agent` opens its `end_session_endpoint` with `id_token_hint`, `client_id`,
    /// `post_logout_redirect_uri` (``SessionConfiguration/postLogoutRedirectURI``, else the
    /// redirect URI) and a fresh `state`, and the provider's return must carry that `state`.
    ///
    /// The order is fixed: revocation, then the local session, then the browser. Whatever the
    /// browser step does, the session here has ended.
    /// - Throws: with process `endSession`: `unsupportedProviderFeature`, before anything is
    ///   cleared, when the provider has no `end_session_endpoint`; the errors of
    ///   ``signOut(revokeTokens:)`` (the browser step is then not taken);
    ///   `providerSignOutIncomplete` when the browser step was cancelled, failed, or came back
    ///   with another `state` — the session here has ended, the provider's may still be open.
    public func signOut(revokeTokens: Bool = false, endingProviderSessionWith agent: AuthorizationAgent) async throws {
        try await attributingErrors(to: .endSession) {
            let metadata = try await discover()
            guard let endpoint = metadata.endSessionEndpoint else {
                throw SessionError(.unsupportedProviderFeature, process: .endSession,
                                   message: "the provider has no end_session_endpoint; nothing was signed out")
            }
            let idToken = state.tokens?.idToken
            try await signOut(revokeTokens: revokeTokens)
            let state = try RandomToken.generate()
            let clientID = configuration.clientID
            let returnURI = configuration.postLogoutRedirectURI ?? configuration.redirectURI
            let session: any AgentSession
            do {
                session = try await agent.prepare(configuredRedirectURI: returnURI, purpose: .signOut)
            } catch {
                throw Self.incomplete("the provider's sign-out page could not be prepared (\(Self.why(error)))")
            }
            let returned: URL
            do {
                guard Exact.equal(session.redirectURI.absoluteString, returnURI.absoluteString)
                    || URLRules.isLoopbackPortVariant(session.redirectURI, of: returnURI) else {
                    throw SessionError(.invalidConfiguration, process: .endSession,
                                       message: "the agent's redirect URI differs from the configured one in more than its loopback port")
                }
                let url = try RPInitiatedLogout.url(endpoint, idToken: idToken, clientID: clientID, returnURI: session.redirectURI, state: state)
                returned = try await session.present(url)
            } catch {
                await session.finish(.abandoned)
                throw Self.incomplete("the provider's sign-out page did not come back (\(Self.why(error)))")
            }
            guard RPInitiatedLogout.returnCarries(state, in: returned) else {
                let error = Self.incomplete("the provider's sign-out came back without this sign-out's state")
                await session.finish(.refused(error))
                throw error
            }
            await session.finish(.accepted)
            log(.info, "signed out at the provider too")
        }
    }

    private static func why(_ error: Error) -> String {
        (error as? SessionError).map { "\($0.code.rawValue): \($0.message)" } ?? "the agent failed with \(type(of: error))"
    }

    private static func incomplete(_ why: String) -> SessionError {
        SessionError(.providerSignOutIncomplete, process: .endSession,
                     message: "signed out here, but \(why): the provider's session may still be open")
    }
}

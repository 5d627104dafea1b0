import Foundation

/// Step-up: a resource's refusal that asks for more scopes or a fresher authentication answered
/// by signing in again, then sending the request once more.
extension SessionClient {
    /// ``sendAuthorized(_:process:purpose:credential:)``, and when the resource refuses the token
    /// for want of more than it carries (``StepUp``: `403 insufficient_scope` naming a scope the
    /// session lacks, or RFC 9470's `401 insufficient_user_authentication`), a new sign-in through
    /// `agent` — for the scopes the session had plus those the resource named, with its
    /// `acr_values` and `max_age`, and by the same user when the session names one — followed by
    /// the request sent again (whatever its method: a refused request was not carried out).
    ///
    /// Each step-up is told first as ``SessionEvent/stepUpRequired(_:)``. Any other answer is
    /// returned as ``sendAuthorized(_:process:purpose:credential:)`` returns it.
    /// - Parameters:
    ///   - request: the request; an `Authorization` header in it (any spelling) is replaced.
    ///   - process: the process every error is attributed to.
    ///   - purpose: what the request is for, as log lines name it (never a secret).
    ///   - agent: shows the authorization server's page for a step-up sign-in.
    ///   - maximumSignIns: how many sign-ins one call may make (default 2); a resource that still
    ///     refuses after them ends the call with its reason's error.
    ///   - scopesWhenUnnamed: the scopes a refusal that names none is taken to ask for (the
    ///     resource's `scopes_supported`, say); default none.
    /// - Throws: `insufficientScope` or `insufficientUserAuthentication` (with the resource's
    ///   status and error) when the resource still asks for more after `maximumSignIns` sign-ins;
    ///   the sign-in's errors (`cancelled` when the user gives up, `idTokenSubjectMismatch` when
    ///   another user signed in: the session then stays the first user's); the errors of
    ///   ``sendAuthorized(_:process:purpose:credential:)``.
    public func sendAuthorized(_ request: HTTPRequest, process: SessionError.Process, purpose: String,
                               signingInAgainWith agent: AuthorizationAgent, maximumSignIns: Int = 2, scopesWhenUnnamed: [String] = [])
        async throws -> (response: HTTPResponse, tokens: SessionTokens) {
        var signIns = 0
        while true {
            let (response, tokens) = try await sendAuthorized(request, process: process, purpose: purpose)
            guard let stepUp = StepUp.demanded(by: response, of: tokens, unnamed: scopesWhenUnnamed) else { return (response, tokens) }
            guard signIns < maximumSignIns else {
                throw SessionError(stepUp.code, process: process,
                                   message: "\(purpose): the resource still refuses (\(stepUp.reason.rawValue)) after \(signIns) sign-in(s)",
                                   oauthError: stepUp.reason.rawValue, httpStatus: response.status)
            }
            signIns += 1
            log(.info, "\(purpose): the resource asks for more (\(stepUp.reason.rawValue)); signing in again")
            emit(.stepUpRequired(stepUp))
            try await attributingErrors(to: process) {
                _ = try await signIn(scopes: stepUp.scopes, agent: agent, stepUp: stepUp, subject: tokens.subject)
            }
        }
    }
}

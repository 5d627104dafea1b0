import Foundation

/// What a protected resource asked for when it refused a request because the session's token
/// carries too little, and so what signing in again asks for: more scopes (RFC 6750 §3.1
/// `insufficient_scope`, `403`) or a fresher or stronger authentication (RFC 9470
/// `insufficient_user_authentication`, `401`, with `acr_values` and `max_age`).
public struct StepUp: Sendable, Equatable {
    /// Why the resource refused the token.
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// `insufficient_scope`: the token lacks a scope the request needs.
        case insufficientScope = "insufficient_scope"
        /// `insufficient_user_authentication`: the user's authentication is too old or too weak.
        case insufficientUserAuthentication = "insufficient_user_authentication"
    }

    /// Why the resource refused the token.
    public let reason: Reason
    /// The scopes to sign in again with: those the session had, then those the challenge named
    /// (the union MCP's step-up asks for, so no permission is lost), each once.
    public let scopes: [String]
    /// The authentication context classes the resource asked for (`acr_values`), if any.
    public let acrValues: [String]?
    /// The most seconds since the user authenticated that the resource takes (`max_age`), if given.
    public let maxAge: Int?

    /// The step-up `response` asks of a session holding `tokens`; nil for any other answer, for a
    /// challenge that cannot be read, and for an `insufficient_scope` that names no scope the
    /// session lacks (signing in again for the same scopes cannot help). A challenge without
    /// `scope` is taken to ask for `unnamed` (a resource's `scopes_supported`, as MCP's scope
    /// selection falls back to).
    static func demanded(by response: HTTPResponse, of tokens: SessionTokens, unnamed: [String] = []) -> StepUp? {
        guard response.status == 401 || response.status == 403,
              let challenges = try? ResourceChallenge.challenges(in: response) else { return nil }
        for challenge in challenges {
            // Compared byte for byte, as every protocol string (an enum's init(rawValue:) would not).
            guard let error = challenge.error, let reason = Reason.allCases.first(where: { Exact.equal($0.rawValue, error) }),
                  reason == .insufficientScope ? response.status == 403 : response.status == 401 else { continue }
            let asked = challenge.scope ?? unnamed
            let missing = asked.filter { !Exact.contains(tokens.scopes, $0) }
            if reason == .insufficientScope, missing.isEmpty { return nil }
            return StepUp(reason: reason, scopes: tokens.scopes + missing, acrValues: challenge.acrValues, maxAge: challenge.maxAge)
        }
        return nil
    }

    /// The code of the error that ends a step-up the resource still refuses.
    var code: SessionError.Code { reason == .insufficientScope ? .insufficientScope : .insufficientUserAuthentication }
}

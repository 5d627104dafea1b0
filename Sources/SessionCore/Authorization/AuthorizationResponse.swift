import Foundation

/// A validated authorization response: the redirect came to our redirect URI, for the pending
/// request (`state`), from the right issuer (RFC 9207), and carries a code.
package struct AuthorizationResponse: Sendable {
    let code: String

    /// See ``AuthorizationRequest/isResponse(_:to:)``.
    static func matches(_ url: URL, redirectURI: URL) -> Bool {
        guard let received = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let expected = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false) else { return false }
        guard let scheme = received.scheme, let expectedScheme = expected.scheme else { return false }
        // Scheme and host are case-insensitive ASCII (RFC 3986 §6.2.2.1); the path is exact, an
        // empty http(s) path being "/" (§6.2.3).
        func path(_ components: URLComponents) -> String {
            components.percentEncodedPath.isEmpty && components.host != nil ? "/" : components.percentEncodedPath
        }
        return ASCII.equalIgnoringCase(scheme, expectedScheme)
            && ASCII.equalIgnoringCase(received.percentEncodedHost ?? "", expected.percentEncodedHost ?? "")
            && URLRules.effectivePort(received) == URLRules.effectivePort(expected)
            && Exact.equal(path(received), path(expected))
    }

    /// Validates `callbackURL` for `request`. The order follows RFC 9207 §2.4 and RFC 6749
    /// §10.12: redirect target, parameter syntax, `state`, `iss`, then `error` or `code`.
    init(callbackURL: URL, request: AuthorizationRequest) throws {
        guard Self.matches(callbackURL, redirectURI: request.redirectURI) else {
            throw Self.reject(.redirectURIMismatch, "the URL does not match the redirect URI")
        }
        code = try Self.code(in: callbackURL, state: request.state, issuer: (request.issuer, request.issuerRequired))
    }

    /// The code `callbackURL` carries for a request with `state`, checked in RFC 9207's order:
    /// parameter syntax, `state`, `iss` (when the `issuer` is known), then `error` or `code`.
    package static func code(in callbackURL: URL, state expectedState: String, issuer: (expected: String, required: Bool)?) throws -> String {
        let items = URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        var parameters: [String: String] = [:]
        for item in items {
            guard parameters[item.name] == nil else { throw reject(.duplicateParameter, "parameter '\(item.name)' appears more than once") }
            parameters[item.name] = item.value ?? ""
        }
        guard let state = parameters["state"] else { throw reject(.stateMismatch, "'state' is missing") }
        guard Exact.equal(state, expectedState) else { throw reject(.stateMismatch, "'state' does not match the pending request") }
        if let issuer {
            if let iss = parameters["iss"] {
                guard Exact.equal(iss, issuer.expected) else { throw reject(.authorizationIssuerMismatch, "'iss' is not the provider's issuer") }
            } else if issuer.required {
                throw reject(.authorizationIssuerMissing, "'iss' is missing but the provider declares it")
            }
        }
        if let error = parameters["error"] {
            let oauth = OAuthErrorResponse(error: error, errorDescription: parameters["error_description"])
            throw oauth.sessionError(process: .authentication, httpStatus: nil, context: "authorization response")
        }
        guard let code = parameters["code"], !code.isEmpty else { throw reject(.missingAuthorizationCode, "'code' is missing") }
        return code
    }

    private static func reject(_ code: SessionError.Code, _ why: String) -> SessionError {
        SessionError(code, process: .authentication, message: "authorization response: \(why)")
    }
}

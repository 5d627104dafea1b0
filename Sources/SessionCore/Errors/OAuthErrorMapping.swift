import Foundation

extension SessionError.Code {
    /// The code for an OAuth 2.0 / OpenID Connect / RFC 6750 `error` string. Unknown strings
    /// become ``oauthError``; the original string is kept by the caller in `SessionError.oauthError`.
    init(oauthError: String) {
        switch oauthError {
        case "access_denied": self = .accessDenied
        case "invalid_request": self = .invalidRequest
        case "unauthorized_client": self = .unauthorizedClient
        case "unsupported_response_type": self = .unsupportedResponseType
        case "invalid_scope": self = .invalidScope
        case "server_error": self = .serverError
        case "temporarily_unavailable": self = .temporarilyUnavailable
        case "invalid_grant": self = .invalidGrant
        case "invalid_client": self = .invalidClient
        case "unsupported_grant_type": self = .unsupportedGrantType
        case "interaction_required": self = .interactionRequired
        case "login_required": self = .loginRequired
        case "consent_required": self = .consentRequired
        case "invalid_token": self = .invalidToken
        case "insufficient_scope": self = .insufficientScope
        case "expired_token": self = .expiredToken
        default: self = .oauthError
        }
    }
}

/// The body of an OAuth 2.0 error response (RFC 6749 §5.2) or the parameters of an error
/// redirect (§4.1.2.1).
struct OAuthErrorResponse: Equatable {
    var error: String
    var errorDescription: String?

    /// Reads `{"error": ..., "error_description": ...}`, strictly (``StrictJSON``); nil when the
    /// body is not such an object.
    init?(json body: Data) {
        guard let object = JSONValue.parse(body)?.objectValue,
              let error = object["error"]?.stringValue, !error.isEmpty else { return nil }
        self.error = error
        self.errorDescription = object["error_description"]?.stringValue
    }

    init(error: String, errorDescription: String?) {
        self.error = error
        self.errorDescription = errorDescription
    }

    /// Reads the `error` and `error_description` attributes of a `WWW-Authenticate: Bearer ...`
    /// challenge (RFC 6750 §3); nil when there is no `error` attribute.
    init?(bearerChallenge header: String) {
        guard let scheme = header.range(of: "Bearer", options: [.caseInsensitive, .anchored]) else { return nil }
        var attributes: [String: String] = [:]
        var rest = Substring(header[scheme.upperBound...])
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingCharacters(in: CharacterSet(charactersIn: " ,")).lowercased()
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "\"") else { break }
                value = String(rest[..<close])
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            attributes[name] = value
        }
        guard let error = attributes["error"], !error.isEmpty else { return nil }
        self.error = error
        self.errorDescription = attributes["error_description"]
    }

    /// The `SessionError` this response stands for.
    func sessionError(process: SessionError.Process, httpStatus: Int?, context: String) -> SessionError {
        SessionError(
            SessionError.Code(oauthError: error),
            process: process,
            message: "\(context): the provider answered with an OAuth error",
            oauthError: error,
            oauthErrorDescription: errorDescription,
            httpStatus: httpStatus
        )
    }
}

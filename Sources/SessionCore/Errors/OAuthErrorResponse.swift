import Foundation

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
        self.init(challenge: header, scheme: "Bearer")
    }

    /// The error of the first `WWW-Authenticate` challenge of `scheme` (`Bearer`, RFC 6750 §3;
    /// `DPoP`, RFC 9449 §7.1), wherever it stands among the header's challenges; nil when the
    /// header cannot be read (``AuthenticationChallenge/parse(_:)``), has no challenge of
    /// `scheme`, or that challenge has no `error`.
    init?(challenge header: String, scheme name: String) {
        guard let challenge = (try? AuthenticationChallenge.parse(header))?.first(where: { $0.isScheme(name) }),
              let error = challenge.parameters["error"], !error.isEmpty else { return nil }
        self.error = error
        self.errorDescription = challenge.parameters["error_description"]
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

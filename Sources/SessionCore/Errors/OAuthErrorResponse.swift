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

    /// The error of a `WWW-Authenticate` challenge of `scheme` (`Bearer`, RFC 6750 §3; `DPoP`,
    /// RFC 9449 §7.1); nil for another scheme or a challenge without `error`.
    init?(challenge header: String, scheme name: String) {
        // The scheme is a token, compared without regard to ASCII case (RFC 9110 §11.1), then a space.
        let bytes = header.utf8
        guard bytes.count > name.utf8.count, ASCII.equalIgnoringCase(String(decoding: bytes.prefix(name.utf8.count), as: UTF8.self), name)
        else { return nil }
        // The bytes before are ASCII, so this is where a character starts.
        let afterScheme = bytes.index(bytes.startIndex, offsetBy: name.utf8.count)
        guard bytes[afterScheme] == UInt8(ascii: " ") else { return nil }
        var attributes: [String: String] = [:]
        var rest = header[afterScheme...]
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

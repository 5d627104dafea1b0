import SessionCore

extension BegunAuthorization {
    /// The request and the cookie, for a test to take apart in one line.
    package var parts: (request: AuthorizationRequest, cookie: String?) { (request, cookie) }
}

import Foundation
import LoopbackHTTP
import SessionCore

/// Pushed authorization requests (RFC 9126): the endpoint that takes them, and the authorization
/// endpoint's use of them, as strict as the RFC: the client authenticated as at the token endpoint,
/// a `request_uri` used once and before it expires, by the client that pushed it, and the
/// parameters taken from the pushed request alone.
extension LocalProviderEngine {
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    /// POST /par: checks the client and the parameters as the authorization endpoint would, keeps
    /// them, and answers 201 with their `request_uri`.
    func pushAuthorizationRequest(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (form, clientID): ([String: String], String)
        switch authenticatedForm(request, endpoint: "pushed authorization request endpoint") {
        case .passed(let passed): (form, clientID) = passed
        case .refused(let refusal): return refusal
        }
        guard form["request_uri"] == nil else { return Self.oauthError("invalid_request", "a pushed request must not itself carry request_uri") }
        guard let client = client(withID: clientID),
              let redirectURI = form["redirect_uri"], Self.isRegistered(redirectURI, for: client) else {
            return Self.oauthError("invalid_request", "the redirect URI is not registered for this client")
        }
        let proofKey: String?
        switch dpopProof(request, at: .pushedAuthorization) {
        case .passed(let jkt): proofKey = jkt
        case .refused(let refusal): return refusal
        }
        // RFC 9449 §10.1: a proof binds the code as dpop_jkt does, and both must name one key.
        if let proofKey, let named = form["dpop_jkt"], !Exact.equal(proofKey, named) {
            return Self.oauthError("invalid_dpop_proof", "dpop_jkt is not the thumbprint of the proof's key")
        }
        let authentication = ["client_secret", "client_assertion", "client_assertion_type", "client_id"]
        var parameters = request.formItems.filter { !Exact.contains(authentication, $0.name) }
        parameters.append((name: "client_id", value: clientID))
        if let proofKey, form["dpop_jkt"] == nil { parameters.append((name: "dpop_jkt", value: proofKey)) }
        let requestURI = Self.requestURIPrefix + Self.randomValue("par")
        let lifetime = options.pushedRequestLifetime
        let expiresAt = options.clock.now().addingTimeInterval(lifetime)
        withState { $0.pushedRequests[requestURI] = PushedRequest(parameters: parameters, clientID: clientID, expiresAt: expiresAt) }
        return HTTPServerResponse(status: 201, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                                  body: Self.json(["request_uri": requestURI, "expires_in": Int(lifetime)]).body)
    }

    /// The parameters the authorization endpoint is to use: a pushed request's (taken out, so used
    /// once) when `items` name one, nil for a request in the URL itself — refused when pushed
    /// requests are required.
    func pushedParameters(_ items: [(name: String, value: String)]) -> Checked<[(name: String, value: String)]?> {
        let parameters = Self.firstValues(items)
        guard let requestURI = parameters["request_uri"] else {
            guard !options.requiresPushedAuthorizationRequests else {
                return .refused(Self.page("This provider takes pushed authorization requests only.", status: 400))
            }
            return .passed(nil)
        }
        guard let clientID = parameters["client_id"] else { return .refused(Self.page("A request_uri needs its client_id.", status: 400)) }
        let now = options.clock.now()
        let pushed = withState { state -> PushedRequest? in
            state.pushedRequests = state.pushedRequests.filter { $0.value.expiresAt > now }
            return state.pushedRequests.removeValue(forKey: requestURI)
        }
        guard let pushed else { return .refused(Self.page("The request_uri is unknown, used before, or expired.", status: 400)) }
        guard Exact.equal(pushed.clientID, clientID) else {
            return .refused(Self.page("The request_uri was pushed by another client.", status: 400))
        }
        return .passed(pushed.parameters)
    }
}

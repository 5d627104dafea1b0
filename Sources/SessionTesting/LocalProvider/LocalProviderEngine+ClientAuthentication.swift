import Foundation
import LoopbackHTTP
import SessionCore

extension LocalProviderEngine {
    /// Who sent a token or revocation request, or the answer that refuses it.
    enum ClientCheck {
        case client(String)
        case refused(HTTPServerResponse)
    }

    /// The client a token or revocation request comes from, authenticated as it registered
    /// (RFC 6749 §2.3): a public client by its `client_id` alone; a confidential one only by its
    /// method and secret. Anything else is `invalid_client` (401 with a Basic challenge, §5.2),
    /// and so is a request that uses two methods at once.
    func authenticateClient(_ request: HTTPServerRequest, form: [String: String]) -> ClientCheck {
        func refuse(_ why: String) -> ClientCheck { .refused(Self.oauthError("invalid_client", why, status: 401)) }
        let basic = request.header("Authorization").flatMap(Self.basicCredentials)
        if request.header("Authorization") != nil, basic == nil { return refuse("the Authorization header is not Basic credentials") }
        guard let clientID = basic?.id ?? form["client_id"],
              let client = options.clients.first(where: { Exact.equal($0.id, clientID) }) else { return refuse("unknown client") }
        if let formID = form["client_id"], !Exact.equal(formID, clientID) { return refuse("two client IDs") }
        switch (client.authentication, basic, form["client_secret"]) {
        case (.none, nil, nil):
            return .client(clientID)
        case (.clientSecretBasic(let secret), let credentials?, nil) where Exact.equal(credentials.secret, secret):
            return .client(clientID)
        case (.clientSecretPost(let secret), nil, let sent?) where Exact.equal(sent, secret):
            return .client(clientID)
        default:
            return refuse("the client did not authenticate as it registered")
        }
    }

    /// The client ID and secret of `Basic base64(urlencode(id):urlencode(secret))`.
    private static func basicCredentials(_ header: String) -> (id: String, secret: String)? {
        guard header.count > 6, ASCII.equalIgnoringCase(header.prefix(6), "Basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6))),
              let text = String(data: decoded, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return nil }
        func decode(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
        guard let id = decode(text[..<colon]), let secret = decode(text[text.index(after: colon)...]) else { return nil }
        return (id, secret)
    }
}

import Foundation

extension SessionClient {
    /// A form post to the token or revocation endpoint, with the client's authentication
    /// (``SessionConfiguration/clientAuthentication``).
    func clientRequest(_ url: URL, _ parameters: [(String, String)]) -> HTTPRequest {
        configuration.clientAuthentication.request(url, clientID: configuration.clientID, parameters)
    }
}

import Foundation

extension SessionClient {
    /// A form post to the token or revocation endpoint, with the client's authentication
    /// (``SessionConfiguration/clientAuthentication``); a client assertion names the token
    /// endpoint of `metadata` as its audience.
    func clientRequest(_ url: URL, _ parameters: [(String, String)], metadata: ProviderMetadata, process: SessionError.Process) throws -> HTTPRequest {
        do {
            return try configuration.clientAuthentication.request(url, clientID: configuration.clientID, parameters,
                                                                  tokenEndpoint: metadata.tokenEndpoint, now: clock.now())
        } catch let error as SessionError {
            throw error.in(process)
        }
    }
}

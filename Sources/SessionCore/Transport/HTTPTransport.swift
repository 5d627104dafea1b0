import Foundation

/// Sends HTTP requests for the core. Implement it to route traffic through your own stack or
/// to fake the network in tests; ``PlatformDefaults/httpTransport()`` is the default
/// (``URLSessionTransport`` on Apple platforms, ``CurlTransport`` on Linux).
///
/// Implementations throw ``HTTPTransportError`` (any other error is treated as a network
/// failure whose outcome at the server is unknown) and follow a redirect only where
/// ``HTTPRequest/redirects`` allows it (``HTTPRequest/Redirects/allows(from:to:body:)``), with
/// `Authorization` dropped when it leaves the request's origin.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

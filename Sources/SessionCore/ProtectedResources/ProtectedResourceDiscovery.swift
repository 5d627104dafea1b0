import Foundation

/// Finds a protected resource's metadata (RFC 9728) the way a client given only the resource's
/// URL must: from the `resource_metadata` of the challenge the resource answered with, else at
/// the well-known URL with the resource's path, then at its origin's root.
///
/// Every document is fetched under the endpoint rules of the provider's documents: https (http
/// only on loopback), redirects only within the document's origin, at most 1 MiB, and read
/// strictly; the metadata must cover the URL asked about
/// (``ProtectedResourceMetadata/covers(_:)``).
public struct ProtectedResourceDiscovery: Sendable {
    private let exchange: ProviderExchange

    /// A discovery that sends its requests through `transport`, logging to `logger`.
    public init(transport: HTTPTransport = PlatformDefaults.httpTransport(), logger: SessionLogger = SilentLogger()) {
        exchange = ProviderExchange(transport: transport, log: LogSink(logger))
    }

    /// The metadata of the resource at `url`.
    /// - Parameters:
    ///   - url: the URL the client uses, or was challenged at.
    ///   - challenge: the resource's challenge, when it answered with one: its
    ///     `resource_metadata`, when it has one, is the only place asked.
    /// - Throws: `invalidConfiguration` for a `url` that is not https (http only on loopback);
    ///   `invalidDiscoveryDocument` when no place has a valid document for `url` (one that covers
    ///   another resource is refused, not skipped); a transport error; all with process
    ///   `configuration`.
    public func metadata(for url: URL, challenge: ResourceChallenge? = nil) async throws -> ProtectedResourceMetadata {
        guard URLRules.isSecureEndpoint(url) else {
            throw SessionError(.invalidConfiguration, process: .configuration,
                               message: "protected resource: '\(Redaction.url(url))' must be https (http only on loopback)")
        }
        if let place = challenge?.resourceMetadata {
            guard let metadata = try await fetch(place, for: url) else {
                throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                                   message: "protected resource metadata: the challenge's resource_metadata has no document")
            }
            return metadata
        }
        for place in ProtectedResourceMetadata.wellKnownURLs(for: url) {
            if let metadata = try await fetch(place, for: url) { return metadata }
        }
        throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                           message: "protected resource metadata: none at the well-known places of '\(Redaction.url(url))'")
    }

    /// The challenge the resource at `url` answers a request without a token with: the first
    /// Bearer or DPoP challenge of a `401`; nil for any other answer (its metadata is then looked
    /// for at the well-known places). Redirects are not followed.
    /// - Parameters:
    ///   - url: the protected resource.
    ///   - accept: the request's `Accept` field; a protocol whose resources answer other media
    ///     types (MCP's streamable HTTP takes `text/event-stream` too) passes its own.
    /// - Throws: `invalidConfiguration` for a `url` that is not https (http only on loopback);
    ///   `invalidResponse` for a challenge that cannot be read; transport errors; all with
    ///   process `configuration`.
    public func challenge(at url: URL, accept: String = "application/json") async throws -> ResourceChallenge? {
        guard URLRules.isSecureEndpoint(url) else {
            throw SessionError(.invalidConfiguration, process: .configuration,
                               message: "protected resource: '\(Redaction.url(url))' must be https (http only on loopback)")
        }
        let probe = HTTPRequest(method: "GET", url: url, headers: ["Accept": accept], followsRedirects: false)
        let response = try await exchange.send(probe, process: .configuration, purpose: "protected resource")
        guard response.status == 401 else { return nil }
        return try ResourceChallenge.challenges(in: response).first
    }

    /// The document at `place`, or nil when there is none (a 404 or 410, as a server without one
    /// at this place answers).
    private func fetch(_ place: URL, for url: URL) async throws -> ProtectedResourceMetadata? {
        let response = try await exchange.fetchDocument(place, process: .configuration, purpose: "protected resource metadata")
        switch response.status {
        case 200: return try ProtectedResourceMetadata(data: response.body, requested: url)
        case 404, 410: return nil
        default:
            throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                               message: "protected resource metadata: the resource answered with an error status", httpStatus: response.status)
        }
    }
}

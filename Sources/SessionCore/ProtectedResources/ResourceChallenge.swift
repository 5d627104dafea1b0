import Foundation

/// What a protected resource's `Bearer` or `DPoP` challenge asks of the client: why the request
/// was refused (RFC 6750 §3.1, RFC 9470 §3), the scopes it needs, the authentication it wants,
/// and where the resource's metadata is (RFC 9728 §5.1).
public struct ResourceChallenge: Sendable, Equatable {
    /// `Bearer` or `DPoP`, as sent.
    public let scheme: String
    /// `error`: `invalid_token`, `insufficient_scope`, `insufficient_user_authentication`, ...;
    /// nil on a first 401, which only says that a token is needed.
    public let error: String?
    /// `error_description`, for people.
    public let errorDescription: String?
    /// `scope`: the scopes the request needs, in order, each once; nil when not sent.
    public let scope: [String]?
    /// `resource_metadata`: the URL of the resource's metadata document (RFC 9728 §5.1).
    public let resourceMetadata: URL?
    /// `acr_values` (RFC 9470 §3): the authentication context classes asked for, in order of preference.
    public let acrValues: [String]?
    /// `max_age` (RFC 9470 §3): the most seconds since the user last authenticated.
    public let maxAge: Int?

    /// The longest `resource_metadata` URL taken.
    public static let maximumURLLength = 2048

    /// The Bearer and DPoP challenges of `response`'s `WWW-Authenticate` header, in order;
    /// empty without one.
    /// - Throws: `invalidResponse` (process `configuration`) when the header cannot be read
    ///   (``AuthenticationChallenge/parse(_:)``), or a Bearer or DPoP challenge's
    ///   `resource_metadata` is not an absolute https URL (http only on loopback) of at most
    ///   ``maximumURLLength`` bytes without user information or fragment, or its `max_age` is
    ///   not a number of seconds.
    public static func challenges(in response: HTTPResponse) throws -> [ResourceChallenge] {
        guard let header = response.header("WWW-Authenticate") else { return [] }
        return try AuthenticationChallenge.parse(header)
            .filter { $0.isScheme("Bearer") || $0.isScheme("DPoP") }
            .map(ResourceChallenge.init)
    }

    /// The meaning of `challenge`, a Bearer or DPoP one.
    /// - Throws: as ``challenges(in:)``.
    public init(_ challenge: AuthenticationChallenge) throws {
        let parameters = challenge.parameters
        scheme = challenge.scheme
        error = parameters["error"]
        errorDescription = parameters["error_description"]
        scope = parameters["scope"].map(Self.spaceDelimited)
        acrValues = parameters["acr_values"].map(Self.spaceDelimited)
        if let text = parameters["max_age"] {
            guard let seconds = Int(text), seconds >= 0, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw AuthenticationChallenge.malformed("max_age is not a number of seconds")
            }
            maxAge = seconds
        } else {
            maxAge = nil
        }
        resourceMetadata = try parameters["resource_metadata"].map(Self.metadataURL)
    }

    /// `text` split at spaces, each value once (compared byte for byte), in order.
    static func spaceDelimited(_ text: String) -> [String] {
        var seen = Set<[UInt8]>()
        return text.split(separator: " ").map(String.init).filter { seen.insert(Array($0.utf8)).inserted }
    }

    private static func metadataURL(_ text: String) throws -> URL {
        guard text.utf8.count <= maximumURLLength else {
            throw AuthenticationChallenge.malformed("resource_metadata is longer than \(maximumURLLength) bytes")
        }
        guard let url = URL(string: text), let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.host?.isEmpty == false, components.user == nil, components.password == nil, components.fragment == nil else {
            throw AuthenticationChallenge.malformed("resource_metadata is not an absolute URL without user or fragment")
        }
        guard URLRules.isSecureEndpoint(url) else {
            throw AuthenticationChallenge.malformed("resource_metadata must be https (http only on loopback)")
        }
        return url
    }
}

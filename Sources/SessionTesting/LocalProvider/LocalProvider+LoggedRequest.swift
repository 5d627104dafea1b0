import Foundation
import SessionCore

extension LocalProvider {
    /// One request as the provider received it. ``description`` redacts secret values.
    public struct LoggedRequest: Sendable, CustomStringConvertible {
        /// The endpoint addressed; nil for an unknown path.
        public let endpoint: Endpoint?
        /// The method.
        public let method: String
        /// The path.
        public let path: String
        /// Query and form parameters (the first value of each name).
        public let parameters: [String: String]
        /// Every `resource` parameter, in order (RFC 8707 allows several).
        public let resources: [String]
        /// The `Authorization` header, if sent.
        public let authorization: String?
        /// The `DPoP` proof header (RFC 9449), if sent.
        public let dpopProof: String?
        /// The `Accept` header, if sent.
        public let accept: String?
        /// The fault applied to this request, if any.
        public let fault: Fault?

        /// Method, path and parameter names; values of secret parameters are redacted.
        public var description: String {
            let names = parameters.keys.sorted().map { name in
                Self.secretParameters.contains(name) ? "\(name)=<redacted>" : "\(name)=\(parameters[name] ?? "")"
            }
            return "\(method) \(path) [\(names.joined(separator: ", "))]\(authorization == nil ? "" : " with an Authorization header")"
        }

        private static let secretParameters: Set<String> = ["code", "code_verifier", "code_challenge", "state", "nonce",
                                                             "token", "refresh_token", "access_token",
                                                             "client_secret", "client_assertion", "device_code"]
    }
}

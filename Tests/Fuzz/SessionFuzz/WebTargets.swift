import Dispatch
import Foundation
@testable import SessionCore
@testable import SessionWebApp
import SessionTesting

/// What reaches a web application from anyone on the internet: a browser's `Cookie` header and a
/// back-channel logout's form body with the logout token in it. Only a value, nil, or a
/// `SessionError` is an answer.
enum WebTargets {
    /// The input's first line as a `Cookie` header, the rest as a form body: the session cookie
    /// and the sign-in cookie looked up, the session identifier read, the `logout_token` values found.
    static func request(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let origin = URL(string: "https://app.example") else { return }
        let request = WebRequest(method: "POST", url: origin, cookie: String(parts[0]))
        for name in ["__Host-session", "__Host-signin", ""] {
            if let value = request.cookie(named: name) {
                guard !value.isEmpty, !value.contains(";") else { fatalError("a cookie value holding a separator was taken") }
                _ = WebSessionID(identifier: value)
            }
        }
        if parts.count > 1 { _ = FormEncoding.values(named: "logout_token", in: Data(parts[1].utf8)) }
    }

    /// A logout token checked by a provider whose discovery document and keys are known: the input
    /// as the token (first byte even), or the rest signed as its claims with one of the keys
    /// (first byte odd; bit 1 picks the key, bit 2 adds `typ: logout+jwt`), so the claim checks
    /// behind a valid signature are fuzzed too.
    static func logoutToken(_ data: Data) {
        guard let mode = data.first else { return }
        let rest = data.dropFirst()
        let raw = mode & 1 == 0 ? String(decoding: rest, as: UTF8.self) : signed(Data(rest), mode: mode)
        if let error = validate(raw), !(error is SessionError) {
            fatalError("unexpected error type \(type(of: error)): \(error)")
        }
    }

    /// Has the provider fetch its discovery document and keys, before libFuzzer counts
    /// allocations: what the provider keeps for its lifetime is no leak of the first input.
    static func fetchProviderDocuments() {
        _ = validate(signed(Data("{}".utf8), mode: 1))
    }

    /// `payload` signed with the key `mode`'s bit 1 picks, with `typ: logout+jwt` when bit 2 is set.
    private static func signed(_ payload: Data, mode: UInt8) -> String {
        let key = CoreTargets.keys[Int(mode >> 1) % CoreTargets.keys.count]
        let type = mode & 4 == 0 ? "" : #","typ":"logout+jwt""#
        let header = Base64URL.encode(Data(#"{"alg":"\#(key.algorithm.rawValue)","kid":"\#(key.keyID)"\#(type)}"#.utf8))
        let signingInput = "\(header).\(Base64URL.encode(payload))"
        guard let signature = try? key.signature(of: Data(signingInput.utf8)) else { fatalError("signing failed") }
        return "\(signingInput).\(Base64URL.encode(signature))"
    }

    /// The error `validateLogoutToken` throws for `raw`, waited for on libFuzzer's thread.
    private static func validate(_ raw: String) -> Error? {
        let outcome = Locked<Error?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                _ = try await provider.validateLogoutToken(raw, maxAge: 300)
            } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }
        finished.wait()
        return outcome.withLock { $0 }
    }

    /// The provider of the logout tokens.
    private static let provider = OpenIDProvider(configuration: CoreTargets.configuration, transport: FixedDocuments(), clock: CoreTargets.clock)

    /// Answers the provider's discovery and key-set requests with documents made once: the
    /// provider keeps what it fetched, and documents made per request would show as new memory
    /// each time it fetches again (an unknown `kid`).
    private struct FixedDocuments: HTTPTransport {
        private static let discovery = Data(("{\"issuer\":\"\(CoreTargets.issuer)\",\"authorization_endpoint\":\"\(CoreTargets.issuer)/authorize\","
            + "\"token_endpoint\":\"\(CoreTargets.issuer)/token\",\"jwks_uri\":\"\(CoreTargets.issuer)/jwks\",\"response_types_supported\":[\"code\"],"
            + "\"subject_types_supported\":[\"public\"],\"id_token_signing_alg_values_supported\":[\"RS256\",\"ES256\"],"
            + "\"authorization_response_iss_parameter_supported\":true}").utf8)
        private static let keySet = SigningKey.jwksDocument(CoreTargets.keys.map(\.publicJWK))

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            switch request.url.path {
            case "/.well-known/openid-configuration": HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.discovery)
            case "/jwks": HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.keySet)
            default: HTTPResponse(status: 404)
            }
        }
    }
}

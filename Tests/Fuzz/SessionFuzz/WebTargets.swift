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
        let options = WebSessionOptions(appOrigin: origin)
        let request = WebRequest(method: "POST", url: origin, cookie: String(parts[0]))
        for name in [options.sessionCookieName, options.signInCookieName, ""] {
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
        let raw = mode & 1 == 0 ? String(decoding: rest, as: UTF8.self)
            : CoreTargets.signed(Data(rest), mode: mode, type: mode & 4 == 0 ? nil : "logout+jwt")
        if let error = validate(raw), !(error is SessionError) {
            fatalError("unexpected error type \(type(of: error)): \(error)")
        }
    }

    /// Has the provider fetch its discovery document and keys, before libFuzzer counts
    /// allocations: what the provider keeps for its lifetime is no leak of the first input.
    static func fetchProviderDocuments() {
        _ = validate(CoreTargets.signed(Data("{}".utf8), mode: 1))
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

    /// Answers the provider's discovery and key-set requests with the fuzzed provider's documents.
    /// (The provider keeps them; `Tests/Fuzz/lsan-suppressions.txt` names this type for that.)
    private struct FixedDocuments: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let body: Data
            switch request.url.path {
            case "/.well-known/openid-configuration": body = CoreTargets.discoveryDocument
            case "/jwks": body = SigningKey.jwksDocument(CoreTargets.keys.map(\.publicJWK))
            default: return HTTPResponse(status: 404)
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }
    }
}

import Foundation
@testable import SessionCore

/// A sealed pending sign-in as it comes back in a cookie: whatever the bytes — as the cookie's
/// text, or as the sealed bytes behind the version prefix — opening it answers with a payload or
/// nil, never a crash.
enum SealedAuthorizationTarget {
    static func run(_ data: Data) {
        // Made for each input: a static holding them shows as a leak to LeakSanitizer.
        guard let configuration = try? SessionConfiguration(issuer: URL(string: "https://op.example")!, clientID: "client",
                                                            redirectURI: URL(string: "com.example.app:/cb")!),
              let key = try? AuthorizationSealingKey(Data(repeating: 7, count: 32)) else { fatalError("the fixed configuration is valid") }
        _ = try? SealedAuthorizationPayload.open(SealedAuthorization(value: String(decoding: data, as: UTF8.self)), with: key, for: configuration)
        _ = try? SealedAuthorizationPayload.open(SealedAuthorization(value: "v1." + Base64URL.encode(data)), with: key, for: configuration)
    }
}

import Foundation

/// The secret that ties a sign-in kept in a ``PendingAuthorizationStore`` to the browser that
/// began it: ``SessionClient/beginAuthorization(scopes:keepingIn:lifetime:)`` draws it (the begun
/// sign-in's cookie), the app sets it as a cookie on that browser, and
/// ``SessionClient/completeAuthorization(callbackURL:keptIn:cookie:)`` requires it back from the
/// browser the callback comes from.
///
/// Without it, anyone who knows a callback URL could have it finished in another browser: an
/// attacker begins a sign-in, signs in as themself, and hands the callback to a victim, whose
/// browser is then signed in as the attacker (login CSRF). The pending record is sealed under
/// this secret, so a callback brought by a browser without it opens nothing and consumes nothing.
///
/// Put ``value`` in a cookie named with the `__Host-` prefix, `HttpOnly`, `Secure`, `Path=/`,
/// `SameSite=Lax` (the callback is a top-level navigation from the provider), expiring with the
/// sign-in; delete it when the sign-in is finished.
public struct BrowserBinding: Sendable, Equatable, CustomStringConvertible {
    /// The secret as cookie-safe text: 43 characters of base64url (32 random bytes).
    public let value: String

    /// A binding as it came back from the browser's cookie.
    public init(value: String) {
        self.value = value
    }

    /// A fresh binding from the system CSPRNG.
    static func generate() throws -> BrowserBinding {
        BrowserBinding(value: Base64URL.encode(try PlatformCrypto.randomBytes(32)))
    }

    /// Never the value.
    public var description: String { "BrowserBinding(<redacted>)" }

    /// The 32 bytes it stands for; nil for a value that is not a binding this package made
    /// (another length, or not canonical base64url).
    var key: Data? {
        guard value.utf8.count == 43, let bytes = Base64URL.decode(value), bytes.count == 32, Exact.equal(Base64URL.encode(bytes), value) else {
            return nil
        }
        return bytes
    }
}

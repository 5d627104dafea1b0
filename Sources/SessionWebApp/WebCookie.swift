import Foundation

/// The layer's cookies as `Set-Cookie` values. Each is `HttpOnly` (no page script reads it),
/// `Secure`, `Path=/`, and without a `Domain` — what the `__Host-` prefix its default names carry
/// requires, so that no other host of the site can set or read it. The session cookie is
/// `SameSite=Lax`: it goes with top-level navigations (a link to the app) but not with cross-site
/// subrequests or form posts; the sign-in cookie too, since the provider's redirect back is a
/// top-level navigation from another site.
enum WebCookie {
    /// The longest life a browser gives a cookie: 400 days (RFC 6265bis §5.6.2).
    static let longestMaxAge: TimeInterval = 400 * 86_400

    /// A cookie `name=value` living `maxAge` seconds, or the 400 days a browser keeps one at most.
    static func set(_ name: String, _ value: String, maxAge: TimeInterval) -> String {
        let seconds = Int(min(max(0, maxAge), longestMaxAge).rounded(.down))
        return "\(name)=\(value); Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=\(seconds)"
    }

    /// The deletion of the cookie `name`.
    static func delete(_ name: String) -> String {
        "\(name)=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0"
    }

    /// True for a cookie name the layer can use: a token of RFC 6265 §4.1.1 (no separators).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
        }
    }
}

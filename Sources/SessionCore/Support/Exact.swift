/// Exact comparison of protocol strings: issuers, audiences, client IDs, subjects, `state`,
/// `nonce`, key IDs, redirect URI parts, JOSE and OAuth parameter values.
///
/// Swift's `==` on `String` is Unicode canonical equivalence: it takes U+212A KELVIN SIGN for
/// the letter `K`, and a decomposed `é` for the precomposed one. The specifications compare
/// these values as code points (RFC 7519 §7.3 "StringOrURI"; OpenID Connect Core §3.1.3.7),
/// so every protocol comparison in the package goes through here and compares UTF-8 bytes.
package enum Exact {
    /// True when `a` and `b` are the same sequence of Unicode scalars (the same UTF-8 bytes);
    /// false when either is nil.
    package static func equal(_ a: (some StringProtocol)?, _ b: (some StringProtocol)?) -> Bool {
        guard let a, let b else { return false }
        return a.utf8.elementsEqual(b.utf8)
    }

    /// ``equal(_:_:)`` for two Strings, the usual case: lengths first, then the bytes, without the
    /// generic path (which other modules of the package call unspecialized, byte by byte).
    package static func equal(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        return a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// True when `values` has an element exactly equal to `value`.
    package static func contains(_ values: some Sequence<String>, _ value: some StringProtocol) -> Bool {
        values.contains { equal($0, value) }
    }
}

import Foundation

/// A device sign-in under way (RFC 8628): what the user must see — a code to type at a URL on
/// any device with a browser — and what the client polls with until they have.
///
/// Show ``userCode`` and ``verificationURI`` (or offer ``verificationURIComplete``, which carries
/// the code, as a link or QR code), then call ``SessionClient/completeDeviceAuthorization(_:)``.
/// The device code it polls with is a secret and appears in no description.
public struct DeviceAuthorization: Sendable, CustomStringConvertible {
    /// The code the user types at ``verificationURI``.
    public let userCode: String
    /// Where the user goes to enter the code.
    public let verificationURI: URL
    /// The same page with the code filled in, when the provider gives one.
    public let verificationURIComplete: URL?
    /// When the codes expire; polling stops then.
    public let expiresAt: Date
    /// The seconds between polls the provider asked for (5 when it did not say).
    public let interval: TimeInterval
    /// The scopes asked for.
    public let scopes: [String]
    package let deviceCode: String

    /// Reads a device authorization response (RFC 8628 §3.2) received at `now`.
    init(response: HTTPResponse, scopes: [String], now: Date) throws {
        guard response.status == 200 else {
            throw ProviderExchange.statusError(response, process: .authentication, purpose: "device authorization")
        }
        let fields = try JSONFields(data: response.body) { why in
            SessionError(.invalidResponse, process: .authentication, message: "device authorization response: \(why)")
        }
        deviceCode = try fields.requiredString("device_code")
        userCode = try fields.requiredString("user_code")
        // Shown to the user as is: printable characters only, no control or bidirectional
        // override that could make a terminal or a page show something else.
        guard Self.isDisplayable(userCode), userCode.count <= 64 else {
            throw fields.fail("member 'user_code' is not a short code of printable characters")
        }
        // RFC 8628's drafts named the page `verification_url`; providers written to them still do.
        let pageMember = fields.members["verification_uri"] == nil && fields.members["verification_url"] != nil ? "verification_url" : "verification_uri"
        guard let verification = try fields.url(pageMember) else { throw fields.fail("member 'verification_uri' is missing") }
        // The user is sent there: https, or http on a loopback host, as every endpoint (no javascript:, no plain http).
        guard URLRules.isSecureEndpoint(verification) else { throw fields.fail("member '\(pageMember)' must be https (http only on loopback)") }
        verificationURI = verification
        verificationURIComplete = try fields.url("verification_uri_complete")
        if let complete = verificationURIComplete, !URLRules.isSecureEndpoint(complete) {
            throw fields.fail("member 'verification_uri_complete' must be https (http only on loopback)")
        }
        guard let lifetime = try fields.number("expires_in"), lifetime > 0, lifetime.isFinite else {
            throw fields.fail("member 'expires_in' is missing or not a positive number")
        }
        let kept = min(lifetime, 86_400)
        expiresAt = now.addingTimeInterval(kept)
        let requested = try fields.number("interval") ?? 5
        guard requested.isFinite, requested >= 0 else { throw fields.fail("member 'interval' is not a non-negative number") }
        // Waited in full, however long (RFC 8628 §3.5): a provider that counts a sooner poll as
        // `slow_down` lengthens its interval each time and would never take one. The codes'
        // lifetime bounds the wait; an interval that outlasts them leaves no poll at all.
        interval = max(requested, 1)
        guard interval < kept else {
            throw fields.fail("member 'interval' is not shorter than the codes' lifetime (\(wholeSeconds(kept)) s): no poll could come before they expire")
        }
        self.scopes = scopes
    }

    /// True when `text` has only characters a display shows as themselves: no control
    /// characters (C0, DEL, C1), no bidirectional formatting (U+061C, U+200E–U+200F,
    /// U+202A–U+202E, U+2066–U+2069), no line or paragraph separators.
    static func isDisplayable(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            let value = scalar.value
            let control = value < 0x20 || (0x7F...0x9F).contains(value)
            let bidi = value == 0x061C || (0x200E...0x200F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value)
            return !control && !bidi && value != 0x2028 && value != 0x2029
        }
    }

    /// The user code and URL, never the device code.
    public var description: String {
        "DeviceAuthorization(user code \(userCode) at \(verificationURI.absoluteString))"
    }
}

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

    /// The longest interval accepted from a provider: a larger one is taken as this.
    static let maximumInterval: TimeInterval = 60

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
        guard let verification = try fields.url("verification_uri") else { throw fields.fail("member 'verification_uri' is missing") }
        verificationURI = verification
        verificationURIComplete = try fields.url("verification_uri_complete")
        guard let lifetime = try fields.number("expires_in"), lifetime > 0, lifetime.isFinite else {
            throw fields.fail("member 'expires_in' is missing or not a positive number")
        }
        expiresAt = now.addingTimeInterval(min(lifetime, 86_400))
        let requested = try fields.number("interval") ?? 5
        guard requested.isFinite, requested >= 0 else { throw fields.fail("member 'interval' is not a non-negative number") }
        interval = min(max(requested, 1), Self.maximumInterval)
        self.scopes = scopes
    }

    /// The user code and URL, never the device code.
    public var description: String {
        "DeviceAuthorization(user code \(userCode) at \(verificationURI.absoluteString))"
    }
}

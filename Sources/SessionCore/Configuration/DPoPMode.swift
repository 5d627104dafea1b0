import Foundation

/// Whether a session's tokens are bound to a key the client holds (DPoP, RFC 9449), so that a
/// copied token is useless without the key.
///
/// The default is ``off``: an app that takes the access token out of the session (to hand it to
/// its own networking, a web view or another process) sends it as a Bearer token, which a
/// provider refuses once the token is bound. Turn it on where every request goes through
/// ``SessionClient/sendAuthorized(_:process:purpose:credential:)`` or
/// ``SessionClient/authorize(_:)``, which add the proof.
public enum DPoPMode: String, Sendable, Equatable, CaseIterable {
    /// Bearer tokens, as RFC 6750 has them.
    case off
    /// DPoP when the provider's metadata lists ES256 in `dpop_signing_alg_values_supported`,
    /// Bearer otherwise.
    case whenSupported
    /// DPoP with every provider; one whose metadata lists DPoP algorithms without ES256 is
    /// `unsupportedProviderFeature`.
    case required
}

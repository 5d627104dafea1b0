import Foundation

/// Login sessions made from GrabID's settings, checked as GrabID checks them.
extension LoginSession {
    /// A session from the settings, with GrabID's keys: `ClientId`, `RedirectUrl`, `Scope`,
    /// `ServiceDiscoveryUrl` (empty when absent), `Request`, `AcrValues`, `Hint`, `IdTokenHint`,
    /// and `prompt`, which GrabID spells in lower case.
    static func validated(from settings: [String: Any]) -> (LoginSession?, GrabIdPartnerError?) {
        validated(clientId: settings["ClientId"] as? String, redirectUrl: settings["RedirectUrl"] as? String,
                scope: settings["Scope"] as? String, request: settings["Request"] as? String,
                acrValues: settings["AcrValues"] as? [String: String],
                serviceDiscoveryUrl: settings["ServiceDiscoveryUrl"] as? String ?? "",
                hint: settings["Hint"] as? String ?? "", idTokenHint: settings["IdTokenHint"] as? String ?? "",
                prompt: settings["prompt"] as? String ?? "")
    }

    /// A session when the client ID and scope are not empty, the redirect URL is a URL and a
    /// discovery URL is given (it may be empty). Otherwise GrabID's error, in its order: client
    /// ID, redirect URL, scope, and `somethingWentWrong` for anything else.
    static func validated(clientId: String?, redirectUrl: String?, scope: String?, request: String?, acrValues: [String: String]?,
                        serviceDiscoveryUrl: String?, hint: String, idTokenHint: String, prompt: String) -> (LoginSession?, GrabIdPartnerError?) {
        if let clientId, !clientId.isEmpty, let scope, !scope.isEmpty, let redirectUrl, let redirect = URL(string: redirectUrl),
           let serviceDiscoveryUrl {
            return (LoginSession(clientId: clientId, redirectUrl: redirect, scope: scope, request: request, acrValues: acrValues,
                                 serviceDiscoveryUrl: serviceDiscoveryUrl, hint: hint, idTokenHint: idTokenHint, prompt: prompt), nil)
        }
        let code: GrabIdPartnerErrorCode = if clientId?.isEmpty ?? true {
            .invalidClientId
        } else if redirectUrl?.isEmpty ?? true {
            .invalidRedirectUrl
        } else if scope?.isEmpty ?? true {
            .invalidScope
        } else {
            .somethingWentWrong
        }
        return (nil, GrabIdPartnerError(code, .loadConfiguration))
    }
}

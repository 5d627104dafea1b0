import Foundation

/// GrabID's `GrabIdPartnerSDK` settings and the login sessions made from them, checked as GrabID
/// checks them.
enum GrabIdConfiguration {
    /// The environment variable naming a JSON or property-list file with the settings, for
    /// platforms without an Info.plist.
    static let fileVariable = "GRABID_PARTNER_SDK_CONFIG"

    /// The settings from, in order: `explicit`, the file named by ``fileVariable``, `bundle`'s
    /// Info.plist. A file may hold the dictionary itself or under `GrabIdPartnerSDK`.
    static func load(explicit: [String: Any]?, bundle: Bundle) -> [String: Any]? {
        if let explicit { return explicit }
        if let path = ProcessInfo.processInfo.environment[fileVariable], let data = FileManager.default.contents(atPath: path) {
            let object = (try? JSONSerialization.jsonObject(with: data))
                ?? (try? PropertyListSerialization.propertyList(from: data, format: nil))
            guard let dictionary = object as? [String: Any] else { return nil }
            return dictionary["GrabIdPartnerSDK"] as? [String: Any] ?? dictionary
        }
        return bundle.infoDictionary?["GrabIdPartnerSDK"] as? [String: Any]
    }

    /// A session from the settings, with GrabID's keys: `ClientId`, `RedirectUrl`, `Scope`,
    /// `ServiceDiscoveryUrl` (empty when absent), `Request`, `AcrValues`, `Hint`, `IdTokenHint`,
    /// and `prompt`, which GrabID spells in lower case.
    static func session(from settings: [String: Any]) -> (LoginSession?, GrabIdPartnerError?) {
        session(clientId: settings["ClientId"] as? String, redirectUrl: settings["RedirectUrl"] as? String,
                scope: settings["Scope"] as? String, request: settings["Request"] as? String,
                acrValues: settings["AcrValues"] as? [String: String],
                serviceDiscoveryUrl: settings["ServiceDiscoveryUrl"] as? String ?? "",
                hint: settings["Hint"] as? String ?? "", idTokenHint: settings["IdTokenHint"] as? String ?? "",
                prompt: settings["prompt"] as? String ?? "")
    }

    /// A session when the client ID and scope are not empty, the redirect URL is a URL and a
    /// discovery URL is given (it may be empty). Otherwise GrabID's error, in its order: client
    /// ID, redirect URL, scope, and `somethingWentWrong` for anything else.
    static func session(clientId: String?, redirectUrl: String?, scope: String?, request: String?, acrValues: [String: String]?,
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

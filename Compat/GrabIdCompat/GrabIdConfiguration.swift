import Foundation

/// Reading and checking GrabID's `GrabIdPartnerSDK` settings: ClientId, RedirectUrl, Scope,
/// ServiceDiscoveryUrl, and optionally Request, AcrValues, Hint, IdTokenHint, Prompt.
enum GrabIdConfiguration {
    /// The environment variable naming a JSON or property-list file with the settings, for
    /// platforms without an Info.plist.
    static let fileVariable = "GRABID_PARTNER_SDK_CONFIG"

    /// The settings from, in order: `explicit`, the file named by ``fileVariable``, the main
    /// bundle's Info.plist. A file may hold the dictionary itself or under `GrabIdPartnerSDK`.
    static func load(explicit: [String: Any]?) -> [String: Any]? {
        if let explicit { return explicit }
        if let path = ProcessInfo.processInfo.environment[fileVariable], let data = FileManager.default.contents(atPath: path) {
            let object = (try? JSONSerialization.jsonObject(with: data))
                ?? (try? PropertyListSerialization.propertyList(from: data, format: nil))
            guard let dictionary = object as? [String: Any] else { return nil }
            return dictionary["GrabIdPartnerSDK"] as? [String: Any] ?? dictionary
        }
        return Bundle.main.object(forInfoDictionaryKey: "GrabIdPartnerSDK") as? [String: Any]
    }

    /// Checks the settings in GrabID's order (client ID, redirect URL, scope, then the discovery
    /// URL) and builds the session.
    static func session(clientId: String?, redirectUrl: String?, scope: String?, request: String?, acrValues: [String: String]?,
                        serviceDiscoveryUrl: String?, hint: String, idTokenHint: String, prompt: String) -> (LoginSession?, GrabIdPartnerError?) {
        func invalid(_ code: GrabIdPartnerErrorCode, _ what: String) -> (LoginSession?, GrabIdPartnerError?) {
            (nil, GrabIdPartnerError(code, .loadConfiguration, "the \(what) is missing or invalid"))
        }
        guard let clientId, !clientId.isEmpty else { return invalid(.invalidClientId, "client ID") }
        guard let redirectText = redirectUrl, let redirect = URL(string: redirectText), redirect.scheme != nil else {
            return invalid(.invalidRedirectUrl, "redirect URL")
        }
        guard let scope, !scope.trimmingCharacters(in: .whitespaces).isEmpty else { return invalid(.invalidScope, "scope") }
        guard let discovery = serviceDiscoveryUrl, let url = URL(string: discovery), url.scheme != nil, url.host != nil else {
            return invalid(.invalidServiceDiscoveryUrl, "service discovery URL")
        }
        return (LoginSession(clientId: clientId, redirectUrl: redirect, scope: scope, request: request, acrValues: acrValues,
                             serviceDiscoveryUrl: discovery, hint: hint, idTokenHint: idTokenHint, prompt: prompt), nil)
    }

    static func session(from settings: [String: Any]) -> (LoginSession?, GrabIdPartnerError?) {
        session(clientId: settings["ClientId"] as? String, redirectUrl: settings["RedirectUrl"] as? String,
                scope: settings["Scope"] as? String, request: settings["Request"] as? String,
                acrValues: settings["AcrValues"] as? [String: String], serviceDiscoveryUrl: settings["ServiceDiscoveryUrl"] as? String,
                hint: settings["Hint"] as? String ?? "", idTokenHint: settings["IdTokenHint"] as? String ?? "",
                prompt: settings["Prompt"] as? String ?? "")
    }
}

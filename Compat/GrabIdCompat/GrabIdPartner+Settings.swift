import Foundation

/// Where GrabID's `GrabIdPartnerSDK` settings are found.
extension GrabIdPartner {
    /// The environment variable naming a JSON or property-list file with the settings, for
    /// platforms without an Info.plist.
    static let fileVariable = "GRABID_PARTNER_SDK_CONFIG"

    /// The settings from, in order: `explicit`, the file named by ``fileVariable``, `bundle`'s
    /// Info.plist. A file may hold the dictionary itself or under `GrabIdPartnerSDK`.
    static func settings(explicit: [String: Any]?, bundle: Bundle) -> [String: Any]? {
        if let explicit { return explicit }
        if let path = ProcessInfo.processInfo.environment[fileVariable], let data = FileManager.default.contents(atPath: path) {
            let object = (try? JSONSerialization.jsonObject(with: data))
                ?? (try? PropertyListSerialization.propertyList(from: data, format: nil))
            guard let dictionary = object as? [String: Any] else { return nil }
            return dictionary["GrabIdPartnerSDK"] as? [String: Any] ?? dictionary
        }
        return bundle.infoDictionary?["GrabIdPartnerSDK"] as? [String: Any]
    }
}

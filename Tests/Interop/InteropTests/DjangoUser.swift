import Foundation
import SessionTesting

/// Plays the user on django-oauth-toolkit's pages: signs in on the login form (with the CSRF
/// token and cookie Django set) and answers the consent form, or confirms a device's code and
/// accepts or denies it.
enum DjangoUser {
    static func pages(username: String, password: String, approves: Bool) -> HeadlessUserAgent.PageHandler {
        { page in
            guard let form = HTMLForm.first(in: page.body) else { return nil }
            var fields = form.fields
            if fields.contains(where: { $0.name == "username" }) {
                fields = fields.filter { $0.name != "username" && $0.name != "password" }
                fields += [("username", username), ("password", password)]
            } else if form.id == "authorizationForm" {
                if approves { fields.append(("allow", "Authorize")) }
            } else if fields.contains(where: { $0.name == "user_code" }) {
                // A device's code, filled in from the verification URL: submitting confirms it.
            } else if page.body.contains("name=\"action\"") {
                // The device page's Accept and Deny are buttons, which carry their value only when pressed.
                fields.append(("action", approves ? "accept" : "deny"))
            } else {
                return nil
            }
            let target = form.action.flatMap { $0.isEmpty ? nil : URL(string: $0, relativeTo: page.url) } ?? page.url
            return HeadlessUserAgent.Submission(url: target.absoluteURL, fields: fields)
        }
    }
}

/// The first `<form>` of a page: its id, action and named non-submit inputs. Enough for the
/// markup Django renders; not a general HTML parser.
struct HTMLForm {
    var id: String?
    var action: String?
    var fields: [(name: String, value: String)] = []

    static func first(in html: String) -> HTMLForm? {
        guard let formStart = html.range(of: "<form"), let formEnd = html.range(of: "</form>", range: formStart.upperBound..<html.endIndex),
              let tagEnd = html.range(of: ">", range: formStart.upperBound..<formEnd.lowerBound) else { return nil }
        let attributes = Self.attributes(String(html[formStart.upperBound..<tagEnd.lowerBound]))
        var form = HTMLForm(id: attributes["id"], action: attributes["action"])
        var cursor = tagEnd.upperBound
        while let input = html.range(of: "<input", range: cursor..<formEnd.lowerBound),
              let end = html.range(of: ">", range: input.upperBound..<formEnd.lowerBound) {
            let field = Self.attributes(String(html[input.upperBound..<end.lowerBound]))
            if let name = field["name"], field["type"] != "submit" {
                form.fields.append((name, field["value"] ?? ""))
            }
            cursor = end.upperBound
        }
        return form
    }

    private static func attributes(_ tag: String) -> [String: String] {
        let pattern = try? NSRegularExpression(pattern: #"([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*"([^"]*)""#)
        var result: [String: String] = [:]
        let range = NSRange(tag.startIndex..., in: tag)
        pattern?.enumerateMatches(in: tag, range: range) { match, _, _ in
            guard let match, let name = Range(match.range(at: 1), in: tag), let value = Range(match.range(at: 2), in: tag) else { return }
            result[tag[name].lowercased()] = unescape(String(tag[value]))
        }
        return result
    }

    private static func unescape(_ text: String) -> String {
        [("&quot;", "\""), ("&#x27;", "'"), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")]
            .reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
}

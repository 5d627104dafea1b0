import Foundation
import LoopbackHTTP
import SessionCore

/// The page a person sees at the authorization endpoint with ``LocalProvider/Options/showsLoginPage``:
/// one button per user, each sending the same authorization request back with the user chosen.
extension LocalProviderEngine {
    func loginPage(_ items: [(name: String, value: String)]) -> HTTPServerResponse {
        let hidden = items.filter { $0.name != "login_as" }
            .map { #"<input type="hidden" name="\#(HTMLText.escape($0.name))" value="\#(HTMLText.escape($0.value))">"# }.joined()
        let buttons = options.users.map { user in
            #"<button name="login_as" value="\#(HTMLText.escape(user.subject))">\#(HTMLText.escape("\(user.givenName) \(user.familyName)")) (\#(HTMLText.escape(user.subject)))</button>"#
        }.joined(separator: " ")
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body>
            <h1>Sign in to the local provider</h1><p>Who signs in?</p>
            <form method="GET" action="\(HTMLText.escape(issuer + LocalProvider.Endpoint.authorization.path))">\(hidden)\(buttons)</form>
            </body></html>
            """
        var response = HTTPServerResponse.text(html, contentType: "text/html; charset=utf-8")
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }
}

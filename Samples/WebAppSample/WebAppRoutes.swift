import Foundation
import LoopbackHTTP
import SessionCore
import SessionWebApp

/// The application's routes: each maps the loopback server's request onto the layer's
/// `WebRequest`, and its `WebResponse` back.
struct WebAppRoutes: Sendable {
    let web: WebSessions
    /// This instance's name, shown on its pages so a person sees which one answered.
    let name: String
    /// Where the browser reaches the application.
    let origin: URL

    /// The routes once the server's port, and so the application's origin, is known.
    final class Holder: Sendable {
        private let current = Locked<WebAppRoutes?>(nil)

        var routes: WebAppRoutes? {
            get { current.value }
            set { current.withLock { $0 = newValue } }
        }

        /// Answers `request` on the server's connection thread. The loopback server's handler is
        /// synchronous, on a thread of its own (not the cooperative pool's), so it may wait here
        /// for the layer's asynchronous answer — a minute at most, then 503.
        func handle(_ request: HTTPServerRequest) -> HTTPServerReply {
            guard let routes else { return .respond(.text("starting", status: 503)) }
            let answer = Locked<HTTPServerResponse?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                let response = await routes.respond(to: request)
                answer.withLock { $0 = response }
                done.signal()
            }
            guard done.wait(timeout: .now() + 60) == .success, let response = answer.value else { return .respond(.text("no answer", status: 503)) }
            return .respond(response)
        }
    }

    func respond(to request: HTTPServerRequest) async -> HTTPServerResponse {
        let url = URL(string: request.target, relativeTo: origin)?.absoluteURL ?? origin
        let webRequest = WebRequest(method: request.method, url: url, headers: request.headers)
        do {
            switch (request.method, request.path) {
            case ("GET", "/"): return try await home(webRequest)
            case ("GET", "/login"): return Self.send(try await web.beginSignIn())
            case ("GET", "/callback"):
                do {
                    return Self.send(try await web.completeSignIn(webRequest).response)
                } catch let error as SessionError {
                    return Self.send(WebResponse(status: 400, setCookies: web.signInFailedCookies), page: "Sign-in failed: \(error.code)")
                }
            case ("GET", "/me"): return try await me(webRequest)
            case ("POST", "/logout"):
                return Self.send(try await web.signOut(webRequest, csrfToken: Self.formValue("csrf", in: request)).response, page: "Refused.")
            case ("POST", "/logout-everywhere"):
                guard let session = try await web.session(for: webRequest), let subject = session.subject,
                      try await web.signOut(webRequest, csrfToken: Self.formValue("csrf", in: request)).response.status == 303 else {
                    return .text("refused", status: 403)
                }
                _ = try await web.endSessions(ofSubject: subject)
                return Self.send(WebResponse(status: 303, location: origin))
            case ("POST", "/logout-provider"):
                return Self.send(try await web.signOutAtProvider(webRequest, csrfToken: Self.formValue("csrf", in: request)).response, page: "Refused.")
            case ("GET", "/signed-out"):
                do {
                    return Self.send(try await web.completeProviderSignOut(webRequest))
                } catch {
                    return Self.send(WebResponse(status: 400, setCookies: web.signOutFailedCookies), page: "The provider's sign-out did not come back.")
                }
            case ("POST", "/backchannel-logout"):
                return Self.send(await web.backChannelLogout(webRequest, body: request.body).response)
            default:
                return .text("not found", status: 404)
            }
        } catch {
            return .text("error: \((error as? SessionError)?.code.rawValue ?? "unexpected")", status: 500)
        }
    }

    /// `/`: who is signed in, with the forms to sign out; or a link to sign in.
    private func home(_ request: WebRequest) async throws -> HTTPServerResponse {
        guard let session = try await web.session(for: request) else {
            return Self.html("<p>Not signed in. <a href=\"/login\">Sign in</a></p>")
        }
        let user = try await session.userInfo()
        let csrf = HTMLText.escape(session.csrfToken)
        let forms = ["/logout": "Sign out", "/logout-provider": "Sign out at the provider too", "/logout-everywhere": "Sign out everywhere"]
            .sorted { $0.key < $1.key }
            .map { #"<form method="POST" action="\#($0.key)"><input type="hidden" name="csrf" value="\#(csrf)"><button>\#($0.value)</button></form>"# }
        return Self.html("<p>Signed in as \(HTMLText.escape(user.sub)) (\(HTMLText.escape(user.email ?? ""))). <a href=\"/me\">/me</a></p>" + forms.joined())
    }

    /// `/me`: the signed-in user as JSON, and which instance answered; 401 without a session.
    private func me(_ request: WebRequest) async throws -> HTTPServerResponse {
        guard let session = try await web.session(for: request) else { return .text(#"{"error":"not signed in"}"#, status: 401, contentType: "application/json") }
        let user = try await session.userInfo()
        let body = try JSONSerialization.data(withJSONObject: ["sub": user.sub, "instance": name], options: [.sortedKeys])
        return HTTPServerResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body)
    }

    private static func html(_ body: String) -> HTTPServerResponse {
        .text("<!doctype html><html><head><meta charset=\"utf-8\"><title>webapp-sample</title></head><body>\(body)</body></html>",
              contentType: "text/html; charset=utf-8")
    }

    /// `response` as the loopback server's, with `page` as its body when it is not a redirect.
    private static func send(_ response: WebResponse, page: String = "") -> HTTPServerResponse {
        var answer = HTTPServerResponse(status: response.status, headers: response.headers)
        if response.location == nil, !page.isEmpty {
            answer.headers.append(("Content-Type", "text/plain; charset=utf-8"))
            answer.body = Data(page.utf8)
        }
        return answer
    }

    private static func formValue(_ name: String, in request: HTTPServerRequest) -> String? {
        request.formItems.first { $0.name == name }?.value
    }
}

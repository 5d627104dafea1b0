import Foundation
import SessionCore

/// The page the loopback listener shows the browser, saying what the app will make of the
/// redirect it just received: a small self-contained HTML page (a title, one heading, one
/// sentence; no external resources), naming the provider's error code but nothing secret.
enum RedirectPage {
    /// The page after the provider's sign-out page sent the browser back.
    static let signedOut = page(title: "Signed out", sentence: "You are signed out of the app and of your provider. You can close this window.")

    /// The page for what the client made of a redirect (``AgentSession/finish(_:)``).
    static func html(for outcome: AgentOutcome, purpose: AgentPurpose) -> String {
        switch (outcome, purpose) {
        case (.accepted, .signIn): html(for: nil)
        case (.refused(let problem), .signIn): html(for: problem)
        case (.accepted, .signOut): signedOut
        case (.refused, .signOut):
            page(title: "Sign-out not confirmed", sentence: "This response does not belong to the sign-out the app is waiting for. "
                + "You are signed out of the app; your provider's session may still be open.")
        case (.abandoned, _):
            page(title: "No longer waiting", sentence: "The app stopped waiting for this page, so it will not use it. Start again from the app.")
        }
    }

    /// The page for a redirect the app will use (`problem` nil) or refuse with `problem`.
    static func html(for problem: SessionError?) -> String {
        let (title, sentence) = text(for: problem)
        return page(title: title, sentence: sentence)
    }

    private static func page(title: String, sentence: String) -> String {
        """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#222}h1{font-size:1.4rem}</style>
            </head><body><h1>\(title)</h1><p>\(sentence)</p></body></html>
            """
    }

    private static func text(for problem: SessionError?) -> (title: String, sentence: String) {
        guard let problem else {
            return ("Sign-in received", "The app is finishing your sign-in. You can close this window and return to it.")
        }
        switch problem.code {
        case .accessDenied:
            return ("Sign-in declined", "You declined the sign-in (access_denied), so the app will not sign you in. You can close this window.")
        case .stateMismatch, .duplicateParameter, .redirectURIMismatch:
            return ("Sign-in failed", "This response does not belong to the sign-in the app is waiting for, so the app will not use it. "
                + "Start the sign-in again from the app.")
        case .authorizationIssuerMismatch, .authorizationIssuerMissing:
            return ("Sign-in failed", "This response did not come from the provider the app signs in with, so the app will not use it. "
                + "Start the sign-in again from the app.")
        case .missingAuthorizationCode:
            return ("Sign-in failed", "The response carries no authorization code, so the app cannot sign you in. "
                + "Start the sign-in again from the app.")
        default:
            let reported = problem.oauthError.map { " (\(safeCode($0)))" } ?? ""
            return ("Sign-in failed", "The provider reported an error\(reported), so the app will not sign you in. "
                + "The app shows the details; you can close this window.")
        }
    }

    /// An OAuth error code as shown: RFC 6749 allows only printable ASCII without `"` and `\`;
    /// anything else, and markup characters, are dropped, and it is cut at 64 characters.
    static func safeCode(_ code: String) -> String {
        String(code.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_-.".unicodeScalars.contains($0)) }
            .prefix(64).map(Character.init))
    }

    /// What the app will make of `callbackURL` when only the authorization URL is known (an
    /// agent given a finished URL): its `state`, then `error` or `code`. No issuer check: the
    /// URL does not say which issuer it is for.
    static func problem(with callbackURL: URL, authorizationURL: URL) -> SessionError? {
        let sent = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let state = sent.first(where: { Exact.equal($0.name, "state") })?.value else {
            return SessionError(.stateMismatch, process: .authentication, message: "authorization response: no sign-in with a 'state' is waiting")
        }
        do {
            _ = try AuthorizationResponse.code(in: callbackURL, state: state, issuer: nil)
            return nil
        } catch {
            return error as? SessionError
        }
    }
}

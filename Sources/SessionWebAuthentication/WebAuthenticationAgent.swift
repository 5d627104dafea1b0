#if canImport(AuthenticationServices) && (canImport(UIKit) || canImport(AppKit))
import AuthenticationServices
import SessionCore
import Foundation

/// Signs in through `ASWebAuthenticationSession`, the system's in-app browser: the default
/// ``AuthorizationAgent`` of the Compat modules on Apple platforms, as the SDKs they replace
/// used it.
///
/// The session waits for the callback the redirect URI calls for (``WebAuthenticationCallback``);
/// a user who closes the page ends the sign-in as `cancelled`. What does not touch
/// AuthenticationServices — matching the callback, ending once, cancelling, mapping errors —
/// is ``WebAuthenticationRun``, tested on Linux. This file is type-checked in CI against
/// declarations transcribed from Apple's documentation and has never run.
public struct WebAuthenticationAgent: AuthorizationAgent {
    /// Whether the session asks for a private browser session that shares no cookies with Safari.
    public let prefersEphemeralWebBrowserSession: Bool
    private let window: Window

    /// Where the page is shown from: a window the agent looks up, or the app's own provider.
    private enum Window: Sendable {
        case anchor(@MainActor @Sendable () -> ASPresentationAnchor?)
        case provider(PresentationContext)
    }

    /// Creates an agent.
    /// - Parameters:
    ///   - prefersEphemeralWebBrowserSession: ask for a private browser session (default false,
    ///     so the user's provider login in Safari is reused).
    ///   - presentationAnchor: the window the page is shown from; nil when there is none, which
    ///     fails the sign-in as `authorizationAgentFailed`. Default: the app's key window.
    public init(prefersEphemeralWebBrowserSession: Bool = false,
                presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor? = { PresentationAnchors.keyWindow() }) {
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        window = .anchor(presentationAnchor)
    }

    /// Creates an agent whose sessions ask the app's own `presentationContext` for their window,
    /// as an app that drives `ASWebAuthenticationSession` itself does.
    public init(prefersEphemeralWebBrowserSession: Bool = false, presentationContext: PresentationContext) {
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        window = .provider(presentationContext)
    }

    /// Shows `url` in a web authentication session and returns the redirect it ends with.
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        let callback = try WebAuthenticationCallback(redirectURI: redirectURI)
        return try await show(url: url, callback: callback)
    }

    @MainActor
    private func show(url: URL, callback: WebAuthenticationCallback) async throws -> URL {
        try await WebAuthenticationRun.run(callback: callback, sessionErrorDomain: ASWebAuthenticationSessionErrorDomain) { completion in
            let provider: any ASWebAuthenticationPresentationContextProviding
            switch window {
            case .anchor(let lookUp):
                guard let anchor = lookUp() else {
                    throw SessionError(.authorizationAgentFailed, process: .authentication, message: "there is no window to show the sign-in page from")
                }
                provider = AnchorProvider(anchor: anchor)
            case .provider(let context):
                provider = context.provider
            }
            let session: ASWebAuthenticationSession
            switch callback {
            case .customScheme(let scheme):
                session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
            case .https(let host, let path):
                guard #available(iOS 17.4, macOS 14.4, *) else {
                    throw SessionError(.invalidConfiguration, process: .authentication,
                                       message: "an https redirect URI needs iOS 17.4 or macOS 14.4 for a web authentication session")
                }
                session = ASWebAuthenticationSession(url: url, callback: .https(host: host, path: path), completionHandler: completion)
            }
            session.presentationContextProvider = provider
            session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            return SessionControl(session: session, provider: provider)
        }
    }

    /// Holds the session and its anchor provider, which the session references only weakly.
    @MainActor
    private final class SessionControl: WebAuthenticationSessionControl {
        let session: ASWebAuthenticationSession
        let provider: any ASWebAuthenticationPresentationContextProviding

        init(session: ASWebAuthenticationSession, provider: any ASWebAuthenticationPresentationContextProviding) {
            self.session = session
            self.provider = provider
        }

        func start() -> Bool { session.start() }
        func cancel() { session.cancel() }
    }

    /// An app's own provider of the window the page is shown from, held for the agent's sessions
    /// (a session holds its provider only weakly).
    @MainActor
    public final class PresentationContext {
        let provider: any ASWebAuthenticationPresentationContextProviding

        /// Holds `provider`.
        public init(_ provider: any ASWebAuthenticationPresentationContextProviding) {
            self.provider = provider
        }
    }

    /// Answers the session's request for a window with the one the agent was given.
    @MainActor
    private final class AnchorProvider: NSObject, ASWebAuthenticationPresentationContextProviding {
        let anchor: ASPresentationAnchor

        init(anchor: ASPresentationAnchor) {
            self.anchor = anchor
        }

        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor { anchor }
    }
}
#endif

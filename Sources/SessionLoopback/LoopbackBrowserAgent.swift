import Foundation
import SessionCore

/// Authorizes in the user's browser and receives the redirect on a loopback listener
/// (RFC 8252 §7.3), the way a console tool or desktop app does it.
///
/// The redirect URI must be `http` on `127.0.0.1` or `[::1]`. With a port, the agent listens on
/// that port; without one, it listens on an ephemeral port and sends the redirect URI with that
/// port, which the provider must allow for loopback URIs (RFC 8252 §7.3). The agent prints the
/// authorization URL (through `showInstruction`) and opens it (by default with `xdg-open`, `open` on macOS),
/// answers the browser's redirect with a short page that says what the app will make of it
/// (received, declined, or failed and why, checked as the core will check it), and stops
/// listening.
///
/// What another local user or a web page can do to the listener is bounded (see the Security
/// article): the URL reaches a browser command only inside a file readable by the user
/// (``ForwardingPage``), never as an argument; only a request to the redirect path that carries
/// the request's `state` ends the sign-in, any other gets a page saying it does not belong to
/// this sign-in while the listener waits on; a request whose `Host` is not the listener's
/// address (DNS rebinding) is refused; and the server makes room for the browser among idle or
/// slowly arriving connections.
///
/// The printed URL necessarily carries the request's `state`, `nonce` and PKCE challenge (a
/// sign-out URL: the ID token as `id_token_hint`); it is meant for the user's eyes, not for a
/// log, so point `showInstruction` at the terminal, never at a log file.
public struct LoopbackBrowserAgent: AuthorizationAgent {
    /// How the authorization URL reaches a browser.
    public enum Opener: Sendable {
        /// `xdg-open URL` (`open URL` on macOS) when that command is on the `PATH`; otherwise
        /// only the printed line.
        case system
        /// Only the printed line: the user opens the URL.
        case printOnly
        /// A function of the app's (or a test's) that hands the URL to a browser.
        case custom(@Sendable (URL) -> Void)
        /// This executable (a browser, say), given the path of a page that forwards to the URL as
        /// its only argument, as `.system` does with `xdg-open`.
        case command(URL)
    }

    /// How long to wait for the browser's redirect.
    public let timeout: TimeInterval
    /// How the URL is opened.
    public let opener: Opener
    /// Receives the line telling the user which URL to open.
    public let showInstruction: @Sendable (String) -> Void

    /// Creates an agent.
    /// - Parameters:
    ///   - timeout: seconds to wait for the redirect before failing with `timeout` (default 300).
    ///   - opener: how to open the URL (default: `xdg-open`, or `open` on macOS, when present).
    ///   - showInstruction: where the "open this URL" line goes (default: standard error).
    public init(timeout: TimeInterval = 300, opener: Opener = .system,
                showInstruction: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.timeout = timeout
        self.opener = opener
        self.showInstruction = showInstruction
    }

    /// The former spelling of ``init(timeout:opener:showInstruction:)``, whose `print` label
    /// shadowed Swift's `print` inside the closure's neighbourhood.
    @available(*, deprecated, renamed: "init(timeout:opener:showInstruction:)")
    public init(timeout: TimeInterval = 300, opener: Opener = .system, print: @escaping @Sendable (String) -> Void) {
        self.init(timeout: timeout, opener: opener, showInstruction: print)
    }

    /// Listens on the configured redirect URI's loopback address, builds the request for the
    /// URI listened on, opens it and returns the redirect the browser brings back.
    /// - Throws: `invalidConfiguration` when the redirect URI is not http on a loopback IP;
    ///   `networkError` when the port cannot be bound; `timeout` when no redirect arrives in
    ///   time; `cancelled` when the task is cancelled.
    public func authorize(configuredRedirectURI: URL, buildRequest: @Sendable (URL) async throws -> AuthorizationRequest) async throws -> URL {
        try await present(listeningOn: configuredRedirectURI) { redirectURI in
            let request = try await buildRequest(redirectURI)
            return (request.url, { callback in
                do {
                    try request.validateResponse(callback)
                    return RedirectPage.html(for: nil)
                } catch {
                    return RedirectPage.html(for: error as? SessionError)
                }
            })
        }
    }

    /// Listens as for a sign-in, opens the provider's sign-out page `buildURL` makes for the URI
    /// listened on, and returns the redirect back; the browser is told the sign-out is done.
    public func present(configuredRedirectURI: URL, buildURL: @Sendable (URL) async throws -> URL) async throws -> URL {
        try await present(listeningOn: configuredRedirectURI, purpose: "sign out") { redirectURI in
            (try await buildURL(redirectURI), { _ in RedirectPage.signedOut })
        }
    }

    /// Listens on `redirectURI` (its port, or an ephemeral one), opens the URL `makeURL` gives
    /// for the URI listened on, and waits for the redirect; the browser gets the page `makeURL`'s
    /// renderer makes of it.
    private func present(listeningOn redirectURI: URL, purpose: String = "sign in",
                         makeURL: @Sendable (URL) async throws -> (URL, RedirectReceiver.Page)) async throws -> URL {
        let receiver = try RedirectReceiver(redirectURI: redirectURI)
        defer { receiver.stop() }
        let (url, page) = try await makeURL(receiver.redirectURI)
        let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { Exact.equal($0.name, "state") }?.value
        receiver.expect(state: state, page)
        showInstruction("Open this URL in a browser to \(purpose): \(url.absoluteString)")
        let forwarding = try open(url)
        defer { forwarding?.remove() }
        return try await receiver.wait(timeout: timeout)
    }

    /// Presents `url` and waits on `redirectURI`, which must then carry its port (the URL was
    /// built for it, so an ephemeral port cannot be chosen here).
    /// - Throws: `invalidConfiguration` for a redirect URI without a port, and as
    ///   ``authorize(configuredRedirectURI:buildRequest:)``.
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        guard URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)?.port != nil else {
            throw SessionError(.invalidConfiguration, process: .authentication,
                               message: "a loopback browser agent given a finished URL needs a redirect URI with a port")
        }
        return try await present(listeningOn: redirectURI) { _ in
            (url, { callback in RedirectPage.html(for: RedirectPage.problem(with: callback, authorizationURL: url)) })
        }
    }

    /// Hands `url` to the opener; returns the forwarding page to remove once the sign-in ends.
    private func open(_ url: URL) throws -> ForwardingPage? {
        let command: URL
        switch opener {
        case .printOnly:
            return nil
        case .custom(let open):
            open(url)
            return nil
        case .command(let executable):
            command = executable
        case .system:
            guard let found = Self.executable(named: Self.browserCommand) else { return nil }
            command = found
        }
        let page = try ForwardingPage(forwardingTo: url)
        let process = Process()
        process.executableURL = command
        process.arguments = [page.fileURL.path]
        process.environment = Self.openerEnvironment(ProcessInfo.processInfo.environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // A browser that cannot be started leaves the printed line as the way forward.
        try? process.run()
        return page
    }

    /// What the browser opener is given of this process's environment: what finding and showing a
    /// browser needs (the display, the session bus, the user's settings and locale), and nothing
    /// else. A browser it starts may live on long after the sign-in, and an app's environment may
    /// hold a client secret or a token.
    static func openerEnvironment(_ environment: [String: String]) -> [String: String] {
        let kept: Set<String> = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "LANG", "LANGUAGE", "TZ",
                                 "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "BROWSER",
                                 "DESKTOP_SESSION", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "XDG_RUNTIME_DIR",
                                 "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_CACHE_HOME",
                                 "GNOME_DESKTOP_SESSION_ID", "KDE_FULL_SESSION"]
        return environment.filter { kept.contains($0.key) || $0.key.hasPrefix("LC_") }
    }

    /// The command that opens a URL in the user's browser.
    private static var browserCommand: String {
        #if os(macOS)
        "open"
        #else
        "xdg-open"
        #endif
    }

    private static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

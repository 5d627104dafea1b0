import Foundation
import SessionCore

/// Authorizes in the user's browser and receives the redirect on a loopback listener
/// (RFC 8252 §7.3), the way a console tool or desktop app does it.
///
/// The redirect URI must be `http` on `127.0.0.1` or `[::1]`. With a port, the agent listens on
/// that port; without one, it listens on an ephemeral port and sends the redirect URI with that
/// port, which the provider must allow for loopback URIs (RFC 8252 §7.3). The agent prints the
/// authorization URL (through `showInstruction`) and opens it (by default with `xdg-open`, `open` on macOS),
/// hands the browser's redirect to the client, answers the browser with a short page saying
/// what the client made of it (received, declined, or failed and why: the redirect is judged
/// once, by the client, which tells the agent), and stops listening.
///
/// What another local user or a web page can do to the listener is bounded (see the Security
/// article): the URL reaches a browser command only inside a file readable by the user
/// (`ForwardingPage`), never as an argument; only a request to the redirect path that carries
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

    /// Listens on the configured redirect URI's loopback address (its port, or an ephemeral one)
    /// and returns the session that opens the page and waits there for the browser's redirect; the
    /// browser is shown what the client made of it, then the listener stops.
    /// - Throws: `invalidConfiguration` when the redirect URI is not http on a loopback IP;
    ///   `networkError` when the port cannot be bound. Its `AgentSession.present(_:)-(URL)`
    ///   throws `timeout` when no redirect arrives in time and `cancelled` when the task is cancelled.
    public func prepare(configuredRedirectURI: URL, purpose: AgentPurpose) async throws -> any AgentSession {
        Session(receiver: try RedirectReceiver(redirectURI: configuredRedirectURI, purpose: purpose), purpose: purpose, agent: self)
    }

    /// Presents `url` and waits on `redirectURI`, which must then carry its port (the URL was
    /// built for it, so an ephemeral port cannot be chosen here). The browser is shown what the
    /// redirect says as far as the URL tells (its `state`, then `error` or `code`).
    /// - Throws: `invalidConfiguration` for a redirect URI without a port, and as
    ///   ``prepare(configuredRedirectURI:purpose:)``.
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        guard URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)?.port != nil else {
            throw SessionError(.invalidConfiguration, process: .authentication,
                               message: "a loopback browser agent given a finished URL needs a redirect URI with a port")
        }
        let session = try await prepare(configuredRedirectURI: redirectURI, purpose: .signIn)
        let callback: URL
        do {
            callback = try await session.present(url)
        } catch {
            await session.finish(.abandoned)
            throw error
        }
        await session.finish(RedirectPage.problem(with: callback, authorizationURL: url).map(AgentOutcome.refused) ?? .accepted)
        return callback
    }

    /// One page on one listener.
    private struct Session: AgentSession {
        let receiver: RedirectReceiver
        let purpose: AgentPurpose
        let agent: LoopbackBrowserAgent

        var redirectURI: URL { receiver.redirectURI }

        func present(_ url: URL) async throws -> URL {
            let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { Exact.equal($0.name, "state") }?.value
            receiver.expect(state: state)
            agent.showInstruction("Open this URL in a browser to \(purpose == .signIn ? "sign in" : "sign out"): \(url.absoluteString)")
            let forwarding = try agent.open(url)
            defer { forwarding?.remove() }
            return try await receiver.wait(timeout: agent.timeout)
        }

        func finish(_ outcome: AgentOutcome) async {
            await receiver.finish(page: RedirectPage.html(for: outcome, purpose: purpose))
        }
    }

    /// Hands `url` to the opener; returns the forwarding page to remove once the sign-in ends.
    fileprivate func open(_ url: URL) throws -> ForwardingPage? {
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

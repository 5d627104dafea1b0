import Foundation

/// The command line of `session-demo`.
struct DemoOptions {
    enum Mode { case walk, interactive, help }

    var mode = Mode.walk
    var storePath: String?
    var issuer: URL?
    var clientID: String?
    var redirectURI = URL(string: "http://127.0.0.1/callback")!
    var scopes: [String] = []
    var opensBrowser = true

    /// A usage error: printed as one line, exit code 2.
    struct UsageError: Error { let message: String }

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else { throw UsageError(message: "\(option) needs a value") }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": mode = .help
            case "--interactive", "-i": mode = .interactive
            case "--store": storePath = try value(for: argument)
            case "--issuer":
                let text = try value(for: argument)
                guard let url = URL(string: text), url.scheme != nil, url.host != nil else { throw UsageError(message: "--issuer: not a URL: \(text)") }
                issuer = url
            case "--client-id": clientID = try value(for: argument)
            case "--redirect-uri":
                let text = try value(for: argument)
                guard let url = URL(string: text) else { throw UsageError(message: "--redirect-uri: not a URL: \(text)") }
                redirectURI = url
            case "--scope": scopes += try value(for: argument).split(separator: " ").map(String.init)
            case "--no-browser": opensBrowser = false
            default: throw UsageError(message: "unknown argument \(argument) (see --help)")
            }
        }
        if issuer != nil, clientID == nil { throw UsageError(message: "--issuer needs --client-id") }
        if issuer == nil, clientID != nil { throw UsageError(message: "--client-id needs --issuer") }
    }

    static let help = """
        session-demo: SessionService's console demo. It registers a listener on SessionService and
        prints every callback as it arrives: numbered, with the queue it ran on and a short summary
        (tokens are never printed).

        USAGE
          session-demo [--store PATH]                   walk through every operation against the
                                                        embedded LocalProvider (no account needed)
          session-demo --interactive [--store PATH]     a menu like netID's example app, reading
                                                        commands from standard input
          session-demo --issuer URL --client-id ID [--redirect-uri http://127.0.0.1:PORT/callback]
                       [--scope S] [--no-browser] [--interactive] [--store PATH]
                                                        the same against a real OpenID provider,
                                                        signing in through your browser

        OPTIONS
          --store PATH     keep the session in PATH; a second run restores it (the walk then keeps
                           the session instead of ending it)
          --scope S        extra scopes, space-separated; may be repeated
          --no-browser     only print the sign-in URL instead of also opening it (xdg-open, or open on macOS)
          -h, --help       this text

        EXIT CODES
          0  every step succeeded
          1  an operation failed (its error is printed)
          2  bad arguments
          3  the provider could not be reached or initialize failed

        The environment variable NO_COLOR turns colour off; so does output that is not a terminal.
        """
}

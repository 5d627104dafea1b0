import Foundation
import SessionCore

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
    /// How a confidential client authenticates; the secret comes from a file or the environment,
    /// never from the command line (it would show in the process list).
    var clientAuthentication = ClientAuthentication.none

    /// A usage error: printed as one line, exit code 2.
    struct UsageError: Error { let message: String }

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else { throw UsageError(message: "\(option) needs a value") }
            return next
        }
        var method = "none"
        var secretFile: String?
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
            case "--client-auth": method = try value(for: argument)
            case "--client-secret-file": secretFile = try value(for: argument)
            default: throw UsageError(message: "unknown argument \(argument) (see --help)")
            }
        }
        if issuer != nil, clientID == nil { throw UsageError(message: "--issuer needs --client-id") }
        clientAuthentication = try Self.clientAuthentication(method, secretFile: secretFile)
        if clientAuthentication != .none, issuer == nil { throw UsageError(message: "--client-auth needs --issuer") }
        if issuer == nil, clientID != nil { throw UsageError(message: "--client-id needs --issuer") }
    }

    /// The environment variable that may hold the client secret instead of a file.
    static let secretVariable = "SESSION_DEMO_CLIENT_SECRET"

    private static func clientAuthentication(_ method: String, secretFile: String?) throws -> ClientAuthentication {
        guard method != "none" else {
            guard secretFile == nil else { throw UsageError(message: "--client-secret-file needs --client-auth basic or post") }
            return .none
        }
        guard method == "basic" || method == "post" else {
            throw UsageError(message: "--client-auth: \(method) is not supported (none, basic or post)")
        }
        let secret: String
        if let secretFile {
            guard let text = try? String(contentsOfFile: secretFile, encoding: .utf8) else {
                throw UsageError(message: "--client-secret-file: cannot read \(secretFile)")
            }
            secret = text.trimmingCharacters(in: .newlines)
        } else if let fromEnvironment = ProcessInfo.processInfo.environment[secretVariable] {
            secret = fromEnvironment
        } else {
            throw UsageError(message: "--client-auth \(method) needs --client-secret-file or \(secretVariable)")
        }
        guard !secret.isEmpty else { throw UsageError(message: "the client secret is empty") }
        return method == "basic" ? .clientSecretBasic(secret) : .clientSecretPost(secret)
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
                       [--client-auth basic|post --client-secret-file FILE]
                                                        the same against a real OpenID provider,
                                                        signing in through your browser

        OPTIONS
          --store PATH     keep the session in PATH; a second run restores it (the walk then keeps
                           the session instead of ending it)
          --scope S        extra scopes, space-separated; may be repeated
          --no-browser     only print the sign-in URL instead of also opening it (xdg-open, or open on macOS)
          --client-auth M  a confidential client: basic (client_secret_basic) or post (client_secret_post);
                           the secret is read from --client-secret-file FILE or SESSION_DEMO_CLIENT_SECRET,
                           never from the command line, where the process list would show it
          -h, --help       this text

        EXIT CODES
          0  every step succeeded
          1  an operation failed (its error is printed)
          2  bad arguments
          3  the provider could not be reached or initialize failed

        The environment variable NO_COLOR turns colour off; so does output that is not a terminal.
        """
}

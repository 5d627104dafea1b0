import Foundation
import SessionCore

/// The command line of `session-demo`.
struct DemoOptions {
    enum Mode { case walk, interactive, help }

    var mode = Mode.walk
    var storePath: String?
    /// Delete what the store holds before starting (`--discard-session`).
    var discardsSession = false
    var issuer: URL?
    var clientID: String?
    var redirectURI = URL(string: "http://127.0.0.1/callback")!
    var scopes: [String] = []
    var opensBrowser = true
    /// Sign in on another device (RFC 8628) instead of in a browser here (`--device`).
    var device = false
    /// End the provider's session too when the walk ends the session (`--end-provider-session`).
    var endsProviderSession = false
    /// Push each sign-in's parameters to the provider first (RFC 9126, `--par`).
    var pushesAuthorizationRequests = false
    /// Bind the session's tokens to a DPoP key (RFC 9449, `--dpop`).
    var dpop = false
    /// How a confidential client authenticates; the secret or private key comes from a file or the
    /// environment, never from the command line (it would show in the process list).
    var clientAuthentication = ClientAuthentication.none
    /// An MCP server's URL, or `embedded` (`--resource`): sign in to it from its URL alone.
    var resource: String?

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
        var keyFile: String?
        var keyID: String?
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": mode = .help
            case "--interactive", "-i": mode = .interactive
            case "--store": storePath = try value(for: argument)
            case "--discard-session": discardsSession = true
            case "--issuer":
                let text = try value(for: argument)
                guard let url = URL(string: text), url.scheme != nil, url.host != nil else { throw UsageError(message: "--issuer: not a URL: \(text)") }
                issuer = url
            case "--client-id": clientID = try value(for: argument)
            case "--resource": resource = try value(for: argument)
            case "--redirect-uri":
                let text = try value(for: argument)
                guard let url = URL(string: text) else { throw UsageError(message: "--redirect-uri: not a URL: \(text)") }
                redirectURI = url
            case "--scope": scopes += try value(for: argument).split(separator: " ").map(String.init)
            case "--no-browser": opensBrowser = false
            case "--device": device = true
            case "--end-provider-session": endsProviderSession = true
            case "--par": pushesAuthorizationRequests = true
            case "--dpop": dpop = true
            case "--client-auth": method = try value(for: argument)
            case "--client-secret-file": secretFile = try value(for: argument)
            case "--client-key-file": keyFile = try value(for: argument)
            case "--client-key-id": keyID = try value(for: argument)
            default: throw UsageError(message: "unknown argument \(argument) (see --help)")
            }
        }
        if resource != nil, issuer != nil || mode == .interactive || device {
            throw UsageError(message: "--resource finds its authorization server itself: it takes no --issuer, --interactive or --device")
        }
        if issuer != nil, clientID == nil { throw UsageError(message: "--issuer needs --client-id") }
        if discardsSession, storePath == nil { throw UsageError(message: "--discard-session needs --store") }
        clientAuthentication = try Self.clientAuthentication(method, secretFile: secretFile, keyFile: keyFile, keyID: keyID)
        if clientAuthentication != .none, issuer == nil { throw UsageError(message: "--client-auth needs --issuer") }
        if issuer == nil, resource == nil, clientID != nil { throw UsageError(message: "--client-id needs --issuer or --resource") }
    }

    /// The environment variable that may hold the client secret instead of a file.
    static let secretVariable = "SESSION_DEMO_CLIENT_SECRET"
    /// The environment variable that may hold the client's PEM private key instead of a file.
    static let keyVariable = "SESSION_DEMO_CLIENT_KEY"

    private static func clientAuthentication(_ method: String, secretFile: String?, keyFile: String?, keyID: String?) throws -> ClientAuthentication {
        switch method {
        case "none":
            guard secretFile == nil, keyFile == nil, keyID == nil else {
                throw UsageError(message: "--client-secret-file, --client-key-file and --client-key-id need --client-auth")
            }
            return .none
        case "basic", "post":
            guard keyFile == nil, keyID == nil else { throw UsageError(message: "--client-key-file and --client-key-id need --client-auth private-key-jwt") }
            let secret = try credential(file: secretFile, option: "--client-secret-file", variable: secretVariable, method: method)
                .trimmingCharacters(in: .newlines)
            guard !secret.isEmpty else { throw UsageError(message: "the client secret is empty") }
            return method == "basic" ? .clientSecretBasic(secret) : .clientSecretPost(secret)
        case "private-key-jwt":
            guard secretFile == nil else { throw UsageError(message: "--client-secret-file needs --client-auth basic or post") }
            let pem = try credential(file: keyFile, option: "--client-key-file", variable: keyVariable, method: method)
            do {
                return .privateKeyJWT(try ClientSigningKey(pem: pem, keyID: keyID))
            } catch let error as SessionError {
                throw UsageError(message: "--client-auth private-key-jwt: \(error.message)")
            }
        default:
            throw UsageError(message: "--client-auth: \(method) is not supported (none, basic, post or private-key-jwt)")
        }
    }

    /// The secret or key text, from `file` or else the environment's `variable`.
    private static func credential(file: String?, option: String, variable: String, method: String) throws -> String {
        if let file {
            // Read only a regular file: a FIFO would block the demo until something wrote to it.
            do {
                return String(decoding: try RegularFile.read(file, limit: 1 << 16), as: UTF8.self)
            } catch let refusal as RegularFile.Refusal {
                throw UsageError(message: "\(option): \(refusal.reason)")
            }
        }
        guard let fromEnvironment = ProcessInfo.processInfo.environment[variable] else {
            throw UsageError(message: "--client-auth \(method) needs \(option) or \(variable)")
        }
        // Read once, then gone: no child of this process (the browser opener) inherits the secret.
        unsetenv(variable)
        return fromEnvironment
    }

    static let help = """
        session-demo: SessionService's console demo. It registers a listener on SessionService and
        prints every callback as it arrives: numbered, with the queue it ran on and a short summary
        (tokens are never printed).

        USAGE
          session-demo [--store PATH|keyring [--discard-session]]
                                                        walk through every operation against the
                                                        embedded LocalProvider (no account needed)
          session-demo --interactive [--store PATH]     a menu like netID's example app, reading
                                                        commands from standard input; it keeps
                                                        several accounts (add, accounts, switch)
          session-demo --issuer URL --client-id ID [--redirect-uri http://127.0.0.1:PORT/callback]
                       [--scope S] [--no-browser] [--interactive] [--store PATH]
                       [--client-auth basic|post --client-secret-file FILE]
                       [--client-auth private-key-jwt --client-key-file FILE [--client-key-id KID]]
                                                        the same against a real OpenID provider,
                                                        signing in through your browser
          session-demo --resource URL|embedded [--client-id ID] [--redirect-uri URI] [--store PATH]
                                                        sign in to an MCP server from its URL alone
                                                        (RFC 9728, 8707, registration, step-up);
                                                        embedded: LocalProvider's /api/mcp

        OPTIONS
          --store PATH     keep the session in PATH; a second run restores it (the walk then keeps
                           the session instead of ending it). --store keyring keeps it in the desktop
                           keyring (the Secret Service: GNOME Keyring, KWallet) instead. With
                           --interactive, the accounts are kept in the directory PATH.accounts
          --discard-session  delete what the store holds first, readable or not: the way out when a
                           stored session cannot be used (SessionClient.discardStoredSession() in code)
          --device         sign in on another device (RFC 8628): the demo prints a code and a URL to open
                           anywhere; the embedded provider approves it as erika after two polls, a real
                           one when a person does
          --end-provider-session
                           end the session at the provider too (RP-initiated logout): its sign-out page is
                           opened like the sign-in page, and comes back to the redirect URI
          --par            push each sign-in's parameters to the provider first (RFC 9126): the browser
                           gets only a reference to them (request_uri)
          --dpop           bind the session's tokens to a key only this process holds (DPoP, RFC 9449):
                           every request proves it; the embedded provider then takes nothing else and
                           asks for its nonce
          --scope S        extra scopes, space-separated; may be repeated
          --no-browser     only print the sign-in URL instead of also opening it (xdg-open, or open on macOS)
          --client-auth M  a confidential client: basic (client_secret_basic), post (client_secret_post)
                           or private-key-jwt (a client assertion signed with an RS256 or ES256 key).
                           The secret is read from --client-secret-file FILE or SESSION_DEMO_CLIENT_SECRET,
                           the unencrypted PKCS #8 PEM key from --client-key-file FILE or SESSION_DEMO_CLIENT_KEY,
                           never from the command line, where the process list would show it;
                           --client-key-id KID names the key in each assertion's header
          -h, --help       this text

        EXIT CODES
          0  every step succeeded
          1  an operation failed (its error is printed)
          2  bad arguments
          3  the provider could not be reached or initialize failed

        The environment variable NO_COLOR turns colour off; so does output that is not a terminal.
        """
}

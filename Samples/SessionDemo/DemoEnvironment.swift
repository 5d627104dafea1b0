import Foundation
import SessionCore
import SessionFacade
import SessionLoopback
import SessionPermissions
import SessionTesting

/// The provider, service, agent and store one run of the demo uses.
struct DemoEnvironment {
    let service: SessionService
    let printer: CallbackPrinter
    let configuration: SessionConfiguration
    /// The embedded provider's permission center; nil with `--issuer`.
    let permissionCenter: PermissionCenterEndpoints?
    let agent: AuthorizationAgent
    /// The embedded provider; nil with `--issuer`.
    let localProvider: LocalProvider?
    /// What the first line says about the provider and the store.
    let description: String
    /// True when a stored session existed before `initialize`, so a restore callback follows it.
    let hasStoredSession: Bool
    let keepsSession: Bool
    /// Where `--interactive` keeps its accounts (a service of several accounts); nil in the walk.
    let accountStore: AccountStore?
    /// Sign in on another device (`--device`).
    var device = false
    /// End the provider's session too (`--end-provider-session`).
    var endsProviderSession = false
    /// The flow a plain authorization uses: with a permission center, both.
    var defaultFlow: AuthFlow { permissionCenter == nil ? .login : .loginPermission }

    static func make(_ options: DemoOptions, console: Console) async throws -> DemoEnvironment {
        let printer = CallbackPrinter(console: console)
        // `--store keyring`: the desktop keyring; any other value is a file.
        let inKeyring = options.storePath == "keyring"
        let storeFile = inKeyring ? nil : options.storePath.map { URL(fileURLWithPath: $0) }
        let provider: LocalProvider?
        let configuration: SessionConfiguration
        let agent: AuthorizationAgent
        if let issuer = options.issuer, let clientID = options.clientID {
            provider = nil
            configuration = try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: options.redirectURI, scopes: options.scopes,
                                                     clientAuthentication: options.clientAuthentication,
                                                     pushesAuthorizationRequests: options.pushesAuthorizationRequests,
                                                     dpop: options.dpop ? .required : .off)
            agent = LoopbackBrowserAgent(opener: options.opensBrowser ? .system : .printOnly)
        } else {
            var providerOptions = LocalProvider.Options()
            providerOptions.stateFile = inKeyring ? try Self.keyringProviderState()
                : storeFile.map { $0.appendingPathExtension("provider") }
            // A person at another device approves after a moment: here, after two polls a second apart.
            providerOptions.devicePollingInterval = 1
            providerOptions.approvesDeviceSignInsAfterPolls = 2
            // A second person, for adding an account (`--interactive`'s add).
            providerOptions.users = [.erika, .max]
            // A provider of today takes DPoP; with --dpop it takes nothing else and wants its nonce.
            providerOptions.offersDPoP = true
            providerOptions.requiresDPoP = options.dpop
            providerOptions.requiresDPoPNonce = options.dpop
            let local = try LocalProvider(options: providerOptions)
            provider = local
            let embedded = try local.configuration(scopes: options.scopes)
            configuration = try SessionConfiguration(issuer: embedded.issuer, clientID: embedded.clientID, redirectURI: embedded.redirectURI,
                                                     scopes: embedded.scopes, pushesAuthorizationRequests: options.pushesAuthorizationRequests,
                                                     dpop: options.dpop ? .required : .off)
            agent = HeadlessUserAgent()
        }
        let store: TokenStore = inKeyring ? keyringStore(configuration)
            : storeFile.map { FileTokenStore(fileURL: $0, configuration: configuration) as TokenStore } ?? InMemoryTokenStore()
        // `--interactive` keeps several accounts: beside the file (PATH.accounts), in the keyring, or in memory.
        var accountStore: AccountStore?
        if options.mode == .interactive {
            accountStore = try inKeyring ? keyringAccountStore(configuration)
                : storeFile.map { try FileAccountStore(configuration: configuration, directory: $0.appendingPathExtension("accounts")) }
                ?? InMemoryAccountStore()
        }
        if options.discardsSession {
            try await store.clear()
            if let accountStore {
                for tokens in (try? await accountStore.storedSessions()) ?? [] {
                    if let subject = tokens.subject { try await accountStore.tokenStore(forSubject: subject).clear() }
                }
            }
        }
        var stored: SessionTokens?
        var storeNote = ""
        do {
            if let accountStore {
                stored = try await accountStore.storedSessions().first
            } else {
                stored = try await store.load()
            }
        } catch {
            // Told once, with the way out: initialize's restore fails on it the same way.
            let reason = (error as? SessionError).map(CallbackPrinter.describe) ?? "\(type(of: error))"
            storeNote = "\nThe stored session cannot be used (\(reason)); add --discard-session to delete it."
        }
        var makeAccountStore: (@Sendable (SessionConfiguration) throws -> AccountStore)?
        if let accountStore { makeAccountStore = { _ in accountStore } }
        let service = SessionService(store: { _ in store }, accountStore: makeAccountStore, agent: agent)
        service.callbackQueue = CallbackPrinter.makeQueue()
        service.registerListener(printer)
        let providerText = provider.map { "the embedded LocalProvider at \($0.issuer.absoluteString) (it approves consent as erika)" }
            ?? configuration.issuer.absoluteString
        let discarded = options.discardsSession ? " (what it held was discarded)" : ""
        let storeText = accountStore != nil
            ? (inKeyring ? "accounts stored in the desktop keyring (Secret Service)" + discarded
               : storeFile.map { "accounts stored in \($0.appendingPathExtension("accounts").path)" + discarded } ?? "accounts kept in memory")
            : inKeyring ? "session stored in the desktop keyring (Secret Service)" + discarded
            : storeFile.map { "session stored in \($0.path)" + discarded } ?? "a temporary in-memory store"
        return DemoEnvironment(service: service, printer: printer, configuration: configuration,
                               permissionCenter: try provider?.permissionCenter, agent: agent, localProvider: provider,
                               description: "Provider: \(providerText), client \(configuration.clientID), \(storeText)"
                                   + (options.pushesAuthorizationRequests ? ", each sign-in pushed to the provider first (PAR, RFC 9126)" : "")
                                   + (options.dpop ? ", tokens bound to this process's DPoP key (RFC 9449)" : "")
                                   + "." + storeNote,
                               hasStoredSession: stored != nil, keepsSession: storeFile != nil || inKeyring, accountStore: accountStore,
                               device: options.device,
                               endsProviderSession: options.endsProviderSession)
    }

    /// Where the embedded provider keeps what it issued when the session is in the keyring, so a
    /// second run's provider knows the stored tokens: beside the file store's sessions.
    private static func keyringProviderState() throws -> URL {
        let directory = try FileTokenStore.defaultDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory.appendingPathComponent("session-demo-keyring.provider")
    }

    /// How many refresh-token grants the embedded provider has answered (nil with `--issuer`).
    var refreshCount: Int? {
        localProvider?.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count
    }
}

/// A facade call awaited as a result: the demo's listener prints the outcome, and the walk only
/// decides what to do next from it. The awaited forms return once every listener saw the
/// outcome (rule C3) and only ever throw `SessionError`.
func outcome<Value>(of call: () async throws -> Value) async -> Result<Value, SessionError> {
    do {
        return .success(try await call())
    } catch {
        return .failure(error as? SessionError ?? SessionError(.unexpectedResponse, process: .authentication, message: "\(type(of: error))"))
    }
}

extension SessionService {
    /// ``expireAccessToken(completion:)``, awaited.
    func expire() async -> Result<Void, SessionError> {
        await withCheckedContinuation { done in expireAccessToken { done.resume(returning: $0) } }
    }
}

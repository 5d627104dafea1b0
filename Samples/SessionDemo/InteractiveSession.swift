import Foundation
import SessionCore
import SessionPermissions
import SessionFacade

/// `--interactive`: the actions of netID's example app as a menu on standard input. Each
/// command waits for its outcome before the next prompt, so piped input gives a stable transcript.
struct InteractiveSession {
    let environment: DemoEnvironment
    let console: Console

    static let menu = """
        Commands (a number or a word):
          1  init                         initialize
          2  auth [login|permission|loginPermission]
                                          authorize with a flow
          3  userinfo                     load user info
          4  permissions [TPID,SYNC_ID,ETPID]
                                          load permissions with identifier options
          5  update valid|invalid [TPID,SYNC_ID,ETPID] [TC-STRING]
                                          update permissions (identifiers default to TPID)
          6  expire                       set an expired access token
          7  end [revoke]                 end session (of the current account)
          8  add [SUBJECT]                sign another account in; the embedded provider
                                          approves as SUBJECT (erika or max; default max)
          9  accounts                     list the accounts, the current one marked *
         10  switch N|SUBJECT             make account N of the list (or SUBJECT's) current
         11  remove N|SUBJECT [keep]      remove that account, revoking its tokens unless keep
          h  help                         this menu
          q  quit
        """

    /// Reads commands until `quit` or the end of input; returns the exit code.
    func run() async -> Int32 {
        console.line(environment.description, .quiet)
        console.line(Self.menu)
        // At a terminal the prompt waits on the line; with piped input the command is echoed
        // instead, so the transcript reads like the session it was.
        let atTerminal = isatty(STDIN_FILENO) == 1
        while true {
            if atTerminal { FileHandle.standardOutput.write(Data("> ".utf8)) }
            guard let line = readLine() else { break }
            if !atTerminal { console.line("> \(Console.printable(line))", .step) }
            let words = line.split(separator: " ").map(String.init)
            guard let command = words.first?.lowercased() else { continue }
            if command == "q" || command == "quit" { break }
            if let problem = await perform(command, Array(words.dropFirst())) {
                console.line("  \(Console.printable(problem))", .bad)
            }
        }
        let errors = environment.printer.errorCount
        console.line("Bye: \(environment.printer.callbackCount) callbacks, \(errors) errors.")
        return 0
    }

    /// Runs one command; returns a complaint about the input, if any.
    private func perform(_ command: String, _ arguments: [String]) async -> String? {
        let service = environment.service
        switch command {
        case "1", "init":
            _ = await outcome { try await service.initialize(environment.configuration, permissionCenter: environment.permissionCenter) }
            if environment.hasStoredSession { _ = await environment.printer.nextAuthentication() }
        case "2", "auth":
            let name = arguments.first ?? environment.defaultFlow.rawValue
            guard let flow = AuthFlow.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                return "unknown flow \(name): use login, permission or loginPermission"
            }
            _ = await outcome { try await service.getAuthorization(flow: flow) }
        case "3", "userinfo":
            _ = await outcome { try await service.fetchUserInfo() }
        case "4", "permissions":
            guard let identifiers = Self.identifiers(arguments.first ?? "") else { return "unknown identifier: use TPID, SYNC_ID or ETPID" }
            _ = await outcome { try await service.fetchPermissions(identifiers: identifiers) }
        case "5", "update":
            guard let word = arguments.first, let consent = PermissionStatus(rawValue: word.uppercased()) else {
                return "update needs valid or invalid, then optionally identifiers and a TC string"
            }
            var rest = arguments.dropFirst()
            var identifiers: Set<IdentifierOption> = [.tagProtocolIdentifier]
            if let first = rest.first, let named = Self.identifiers(first) {
                identifiers = named
                rest = rest.dropFirst()
            }
            _ = await outcome { try await service.updatePermissions(PermissionUpdate(idConsent: consent, iabTcString: rest.first), identifiers: identifiers) }
        case "6", "expire":
            if case .failure(let error) = await service.expire() {
                return "no access token to expire: \(CallbackPrinter.describe(error))"
            }
            console.line("  (the access token now counts as expired; the next call refreshes it)", .quiet)
        case "7", "end":
            _ = await outcome { try await service.endSession(revokeTokens: arguments.first == "revoke") }
        case "8", "add":
            if let local = environment.localProvider { local.scriptConsent(.approveAs(subject: arguments.first ?? "max")) }
            _ = await outcome { try await service.getAuthorization(flow: environment.defaultFlow) }
        case "9", "accounts":
            guard case .success(let accounts) = await outcome(of: { try await service.accounts() }) else { return "cannot list the accounts" }
            if accounts.isEmpty { console.line("  (no account is signed in)", .quiet) }
            for (number, account) in accounts.enumerated() {
                let mark = service.currentAccount?.id == account.id ? "*" : " "
                let signedIn = account.signedInAt.map { ", signed in \($0.formatted(.iso8601))" } ?? ""
                let name = [account.name, account.email.map { "<\($0)>" }].compactMap { $0 }.joined(separator: " ")
                console.line(Console.printable("  \(mark) \(number + 1)  \(account.subject)\(name.isEmpty ? "" : " " + name)\(signedIn)"))
            }
        case "10", "switch":
            guard let account = await listedAccount(arguments.first) else { return "switch needs the number or subject of an account (see accounts)" }
            _ = await outcome { try await service.switchAccount(to: account) }
        case "11", "remove":
            guard let account = await listedAccount(arguments.first) else { return "remove needs the number or subject of an account (see accounts)" }
            let result = await outcome { try await service.removeAccount(account, revokeTokens: arguments.dropFirst().first != "keep") }
            if case .success = result, service.currentAccount == nil || service.currentAccount?.id != account.id {
                console.line(Console.printable("  removed \(account.subject)"), .quiet)
            }
        case "h", "help":
            console.line(Self.menu)
        default:
            return "unknown command \(command) (h for help)"
        }
        return nil
    }

    /// Account `word` of the list `accounts` prints: its number (from 1) or its subject; nil when
    /// there is none.
    private func listedAccount(_ word: String?) async -> Account? {
        guard let word, case .success(let accounts) = await outcome(of: { try await environment.service.accounts() }) else { return nil }
        if let number = Int(word) { return accounts.indices.contains(number - 1) ? accounts[number - 1] : nil }
        return accounts.first { $0.subject == word }
    }

    /// `TPID,SYNC_ID` as identifier options; nil when a name is not one.
    private static func identifiers(_ list: String) -> Set<IdentifierOption>? {
        var identifiers = Set<IdentifierOption>()
        for name in list.split(separator: ",") {
            guard let option = IdentifierOption(rawValue: name.uppercased()) else { return nil }
            identifiers.insert(option)
        }
        return identifiers
    }
}

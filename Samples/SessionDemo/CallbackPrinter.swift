import Dispatch
import Foundation
import SessionCore
import SessionPermissions
import SessionFacade

/// The demo's listener: prints every callback as it arrives, numbered, with the queue it ran on
/// and a summary that never includes a token.
final class CallbackPrinter: SessionServiceDelegate, Sendable {
    static let queueLabel = "session-demo.callbacks"
    private static let queueKey = DispatchSpecificKey<String>()

    /// The serial queue the demo's callbacks run on, named so each line can show it.
    static func makeQueue() -> DispatchQueue {
        let queue = DispatchQueue(label: queueLabel)
        queue.setSpecific(key: queueKey, value: queueLabel)
        return queue
    }

    private struct Tally: Sendable {
        var count = 0
        var errors = 0
        var authentications: [Result<Void, SessionError>] = []
        var authenticationWaiter: CheckedContinuation<Result<Void, SessionError>, Never>?
    }

    private let console: Console
    private let tally = Locked(Tally())

    init(console: Console) {
        self.console = console
    }

    var callbackCount: Int { tally.withLock { $0.count } }
    var errorCount: Int { tally.withLock { $0.errors } }

    /// Waits for the next authentication callback (the restore announced after `initialize`).
    func nextAuthentication() async -> Result<Void, SessionError> {
        await withCheckedContinuation { continuation in
            let ready = tally.withLock { tally -> Result<Void, SessionError>? in
                if tally.authentications.isEmpty {
                    tally.authenticationWaiter = continuation
                    return nil
                }
                return tally.authentications.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func authenticated(_ result: Result<Void, SessionError>) {
        let waiter = tally.withLock { tally -> CheckedContinuation<Result<Void, SessionError>, Never>? in
            guard let waiter = tally.authenticationWaiter else {
                tally.authentications.append(result)
                return nil
            }
            tally.authenticationWaiter = nil
            return waiter
        }
        waiter?.resume(returning: result)
    }

    private func show(_ callback: String, _ summary: String, failed: Bool = false) {
        let number = tally.withLock { tally -> Int in
            tally.count += 1
            if failed { tally.errors += 1 }
            return tally.count
        }
        let queue = DispatchQueue.getSpecific(key: Self.queueKey) ?? (Thread.isMainThread ? "main" : "another queue")
        // The summary quotes the provider (errors, claims, permission values): one line, no controls.
        console.line("  #\(number) [\(queue)] \(callback): \(Console.printable(summary))", failed ? .bad : .good)
    }

    static func describe(_ error: SessionError) -> String {
        var text = "\(error.code.rawValue) (\(error.process.rawValue)): \(error.message)"
        if let oauth = error.oauthError { text += " [provider: \(oauth)]" }
        return text
    }

    static func describe(_ info: UserInfo) -> String {
        let name = info.name ?? [info.givenName, info.familyName].compactMap { $0 }.joined(separator: " ")
        return "sub=\(info.sub)" + (name.isEmpty ? "" : ", \(name)") + (info.email.map { " <\($0)>" } ?? "")
    }

    static func describe(_ identifiers: SubjectIdentifiers?) -> String {
        guard let identifiers else { return "" }
        return [("tpid", identifiers.tpId), ("sync_id", identifiers.syncId), ("etpid", identifiers.eTpId)]
            .compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: ", ")
    }

    func didFinishInitializationWithError(_ error: SessionError?) {
        show("didFinishInitializationWithError", error.map(Self.describe) ?? "nil", failed: error != nil)
    }

    func didFinishAuthentication(_ accessToken: String) {
        show("didFinishAuthentication", "an access token (\(accessToken.count) characters, not shown)")
        authenticated(.success(()))
    }

    func didFinishAuthenticationWithError(_ error: SessionError) {
        show("didFinishAuthenticationWithError", Self.describe(error), failed: true)
        authenticated(.failure(error))
    }

    func didCancelAuthentication(_ error: SessionError) {
        show("didCancelAuthentication", Self.describe(error), failed: true)
    }

    func didFetchUserInfo(_ userInfo: UserInfo) { show("didFetchUserInfo", Self.describe(userInfo)) }

    func didFetchUserInfoWithError(_ error: SessionError) { show("didFetchUserInfoWithError", Self.describe(error), failed: true) }

    func didFetchPermissions(_ permissions: PermissionReadResponse) {
        var parts = [permissions.statusCode.rawValue]
        if let consent = permissions.privacySettings?.idConsent?.status { parts.append("idconsent=\(consent.rawValue)") }
        if let tcString = permissions.privacySettings?.iabTcString?.value { parts.append("iab_tc_string=\(tcString)") }
        let identifiers = Self.describe(permissions.subjectIdentifiers)
        if !identifiers.isEmpty { parts.append(identifiers) }
        show("didFetchPermissions", parts.joined(separator: ", "))
    }

    func didFetchPermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError) {
        show("didFetchPermissionsWithError", "\(status.rawValue), \(Self.describe(error))", failed: true)
    }

    func didUpdatePermissions(_ subjectIdentifiers: SubjectIdentifiers) {
        let identifiers = Self.describe(subjectIdentifiers)
        show("didUpdatePermissions", identifiers.isEmpty ? "updated" : identifiers)
    }

    func didUpdatePermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError) {
        show("didUpdatePermissionsWithError", "\(status.rawValue), \(Self.describe(error))", failed: true)
    }

    func didReceiveDeviceAuthorization(_ authorization: DeviceAuthorization) {
        show("didReceiveDeviceAuthorization", "user code \(authorization.userCode), to enter at \(authorization.verificationURI.absoluteString)")
    }

    func didEndSession() { show("didEndSession", "no token is left in memory or in the store") }

    func didFailToEndProviderSession(_ error: SessionError) { show("didFailToEndProviderSession", Self.describe(error), failed: true) }

    func didEndSessionWithError(_ error: SessionError) { show("didEndSessionWithError", Self.describe(error), failed: true) }
}

import Foundation
import SessionCore
import SessionPermissions
import SessionFacade

/// The default run: every operation once, in the order a first-time user would try them.
struct DemoWalk {
    let environment: DemoEnvironment
    let console: Console

    /// Runs the walk and returns the exit code.
    func run() async -> Int32 {
        let started = Date()
        let service = environment.service
        console.line(environment.description, .quiet)

        step(environment.permissionCenter == nil ? "initialize(configuration)" : "initialize(configuration, permissionCenter:)")
        if case .failure(let error) = await outcome(of: {
            try await service.initialize(environment.configuration, permissionCenter: environment.permissionCenter)
        }) {
            console.failure("initialize failed: \(CallbackPrinter.describe(error))")
            return 3
        }
        var restored = false
        if environment.hasStoredSession {
            restored = (try? await environment.printer.nextAuthentication().get()) != nil
            console.line(restored ? "  (the session stored by an earlier run was restored)" : "  (the stored session could not be used)", .quiet)
        }
        if !restored, environment.device {
            step("getDeviceAuthorization(flow: .\(environment.defaultFlow.rawValue)): sign in on another device")
            let console = console, embedded = environment.localProvider != nil
            let signIn = await outcome(of: {
                try await service.getDeviceAuthorization(flow: environment.defaultFlow) { authorization in
                    console.line("  On any device, open \(authorization.verificationURI.absoluteString) and enter the code \(authorization.userCode)")
                    if let direct = authorization.verificationURIComplete { console.line("  (or open \(direct.absoluteString))") }
                    console.line(embedded ? "  (the embedded provider approves it as erika after two polls)" : "  Waiting for the approval...", .quiet)
                }
            })
            if case .failure = signIn { return finish(started, outcome: "sign-in failed") }
        } else if !restored {
            step("getAuthorization(flow: .\(environment.defaultFlow.rawValue))")
            if case .failure = await outcome(of: { try await service.getAuthorization(flow: environment.defaultFlow) }) { return finish(started, outcome: "sign-in failed") }
        }

        step("fetchUserInfo()")
        _ = await outcome { try await service.fetchUserInfo() }
        if environment.permissionCenter != nil {
            step("fetchPermissions(identifiers: [TPID, SYNC_ID])")
            let before = await outcome { try await service.fetchPermissions(identifiers: [.tagProtocolIdentifier, .synchronizationIdentifier]) }
            let current = (try? before.get())?.privacySettings?.idConsent?.status
            let next: PermissionStatus = current == .valid ? .invalid : .valid
            step("updatePermissions(idconsent: \(next.rawValue), identifiers: [TPID])")
            _ = await outcome { try await service.updatePermissions(PermissionUpdate(idConsent: next), identifiers: [.tagProtocolIdentifier]) }
            step("fetchPermissions()")
            _ = await outcome { try await service.fetchPermissions(identifiers: []) }
        } else {
            console.line("  (permission steps skipped: no permission center is configured for this provider)", .quiet)
        }

        step("expireAccessToken(), then fetchUserInfo(): the token is refreshed on the way")
        let refreshesBefore = environment.refreshCount
        _ = await service.expire()
        _ = await outcome { try await service.fetchUserInfo() }
        if let before = refreshesBefore, let after = environment.refreshCount {
            console.line("  (the provider answered \(after - before) refresh request; the new refresh token was stored first)", .quiet)
        }

        if environment.keepsSession {
            console.line("(endSession skipped: the session stays in the store, so the next run restores it)", .quiet)
        } else {
            if environment.endsProviderSession {
                step("endSession(revokeTokens: true, endingProviderSessionWith: agent): signed out at the provider too")
                let agent = environment.agent
                _ = await outcome { try await service.endSession(revokeTokens: true, endingProviderSessionWith: agent) }
            } else {
                step("endSession(revokeTokens: true)")
                _ = await outcome { try await service.endSession(revokeTokens: true) }
            }
        }
        return finish(started, outcome: environment.keepsSession ? "session kept" : "session ended")
    }

    private func step(_ text: String) {
        console.line("-> \(text)", .step)
    }

    private func finish(_ started: Date, outcome: String) -> Int32 {
        let errors = environment.printer.errorCount
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        console.line("Done: \(environment.printer.callbackCount) callbacks, \(errors) errors, \(outcome), in \(seconds) s.",
                     errors == 0 ? .good : .bad)
        if errors > 0 { console.failure("\(errors) operation\(errors == 1 ? "" : "s") failed; see the callbacks above") }
        return errors == 0 ? 0 : 1
    }
}

import Foundation
import SessionCore
import SessionFacade
import SessionFacadeTesting
import SessionTesting
import XCTest

/// A service of several accounts: each sign-in adds one and makes it current, switching moves
/// every later operation to the account chosen, removing one leaves the others, and a later
/// launch restores the account signed in most recently.
final class AccountOperationsTests: XCTestCase {
    private func directory() -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("facade-accounts-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// A service of accounts kept in `directory`, initialized, with erika then max signed in.
    private func twoAccounts(in directory: URL) async throws -> FacadeHarness {
        let facade = try makeFacade(accountsDirectory: directory) {
            $0.users = [.erika, .max]
        }
        await facade.initialize()
        facade.provider.scriptConsent(.approve, .approveAs(subject: "max"))
        await facade.signIn(.login)
        facade.clock.advance(by: 60)
        await facade.signIn(.login)
        return facade
    }

    func testEachSignInAddsAnAccountAndSwitchingMovesTheOperationsToIt_C1_C3_C4() async throws {
        let facade = try await twoAccounts(in: directory())
        XCTAssertEqual(facade.transcript(after: FacadeHarness.initialized), [
            "A.didFinishAuthentication(token)", "completion.getAuthorization(token)",
            "A.didFinishAuthentication(token)", "completion.getAuthorization(token)",
        ])
        XCTAssertEqual(facade.service.currentAccount?.subject, "max", "the latest sign-in is current")
        let before = facade.log.recorded.count
        facade.service.fetchAccounts(completion: facade.log.completion("accounts"))
        facade.service.fetchUserInfo(completion: facade.log.completion("userInfo"))
        await facade.assertTranscript(after: before, [
            "completion.accounts(accounts=max,erika)", "A.didFetchUserInfo(sub=max)", "completion.userInfo(sub=max)",
        ])

        let listed = try await facade.service.accounts()
        let erika = try XCTUnwrap(listed.first { $0.subject == "erika" })
        let switched = facade.log.recorded.count
        facade.service.switchAccount(to: erika, completion: facade.log.completion("switch"))
        facade.service.fetchUserInfo(completion: facade.log.completion("userInfo"))
        await facade.assertTranscript(after: switched, [
            "A.didFinishAuthentication(token)", "completion.switch(token)", "A.didFetchUserInfo(sub=erika)", "completion.userInfo(sub=erika)",
        ])
        XCTAssertEqual(facade.service.currentAccount?.subject, "erika")
        assertOnCallbackQueue(facade.log)
    }

    func testRemovingAnotherAccountLeavesTheCurrentOneAndRemovingTheCurrentOneEndsItsSession_C2_C4() async throws {
        let facade = try await twoAccounts(in: directory())
        let accounts = try await facade.service.accounts()
        let erika = try XCTUnwrap(accounts.first { $0.subject == "erika" }), max = try XCTUnwrap(accounts.first { $0.subject == "max" })

        let before = facade.log.recorded.count
        facade.service.removeAccount(erika, completion: facade.log.completion("removeErika"))
        facade.service.fetchUserInfo(completion: facade.log.completion("userInfo"))
        facade.service.removeAccount(max, completion: facade.log.completion("removeMax"))
        facade.service.fetchUserInfo(completion: facade.log.completion("userInfo"))
        await facade.assertTranscript(after: before, [
            "completion.removeErika(success)", "A.didFetchUserInfo(sub=max)", "completion.userInfo(sub=max)",
            "A.didEndSession()", "completion.removeMax(success)",
            "A.didFetchUserInfoWithError(notAuthenticated)", "completion.userInfo(notAuthenticated)",
        ])
        XCTAssertNil(facade.service.currentAccount)
        let left = try await facade.service.accounts()
        XCTAssertEqual(left, [])
        XCTAssertGreaterThanOrEqual(facade.provider.requestLog.filter { $0.path == "/revoke" }.count, 2, "both were revoked")
    }

    func testEndSessionEndsOnlyTheCurrentAccount() async throws {
        let facade = try await twoAccounts(in: directory())
        try await facade.service.endSession()
        XCTAssertNil(facade.service.currentAccount)
        let left = try await facade.service.accounts()
        XCTAssertEqual(left.map(\.subject), ["erika"])
    }

    func testALaterLaunchRestoresTheAccountSignedInMostRecently_C5() async throws {
        let directory = directory()
        let first = try await twoAccounts(in: directory)
        let listed = try await first.service.accounts()
        let erika = try XCTUnwrap(listed.first { $0.subject == "erika" })
        try await first.service.switchAccount(to: erika)

        let second = SessionService(accountStore: { [directory] in try FileAccountStore(configuration: $0, directory: directory) },
                                    transport: CurlTransport(timeout: 5), clock: first.clock)
        let log = CallbackLog()
        let listener = RecordingListener("B", log: log)
        second.registerListener(listener)
        second.callbackQueue = DispatchQueue(label: "second-launch")
        second.initialize(first.configuration, completion: log.completion("initialize"))
        _ = await log.waitForEvents(3)
        XCTAssertEqual(log.transcript, ["B.didFinishInitializationWithError(nil)", "completion.initialize(success)", "B.didFinishAuthentication(token)"])
        XCTAssertEqual(second.currentAccount?.subject, "max", "max signed in last; the switch to erika is the app's to remember")
        let info = try await second.fetchUserInfo()
        XCTAssertEqual(info.sub, "max")
    }

    func testAServiceOfOneSessionRefusesTheAccountOperations() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        do {
            _ = try await facade.service.accounts()
            XCTFail("a service of one session has no accounts")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .invalidConfiguration)
        }
        await facade.signIn()
        XCTAssertNil(facade.service.currentAccount)
    }
}

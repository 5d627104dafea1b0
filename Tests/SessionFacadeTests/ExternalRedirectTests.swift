import Foundation
import SessionCore
@testable import SessionFacade
import XCTest

/// The external-resume wait: the app shows the page and hands the redirect back.
final class ExternalRedirectTests: XCTestCase {
    private let redirectURI = URL(string: "com.example.app:/oauth/callback")!
    private var response: URL { URL(string: "com.example.app:/oauth/callback?code=c&state=s")! }

    func testTheRedirectTheAppHandsBackIsReturnedOnce() async throws {
        let redirect = ExternalRedirect()
        let (shown, sink) = AsyncStream.makeStream(of: Void.self)
        let wait = Task { [redirectURI] in try await redirect.wait(for: redirectURI) { sink.yield() } }
        var iterator = shown.makeAsyncIterator()
        _ = await iterator.next()
        XCTAssertFalse(redirect.resume(URL(string: "com.example.app:/elsewhere?code=c")!), "another target is not the redirect")
        XCTAssertTrue(redirect.resume(response))
        XCTAssertFalse(redirect.resume(response), "a second resume changes nothing")
        let returned = try await wait.value
        XCTAssertEqual(returned, response)
        XCTAssertFalse(redirect.cancel(), "nothing waits any more")
    }

    func testTheAppMayResumeFromInsidePresent() async throws {
        let redirect = ExternalRedirect()
        let response = self.response
        let returned = try await redirect.wait(for: redirectURI) { XCTAssertTrue(redirect.resume(response)) }
        XCTAssertEqual(returned, response)
    }

    func testCancelTaskCancellationAPresentErrorAndANewerWaitEachEndTheWait() async throws {
        let redirect = ExternalRedirect()
        let redirectURI = self.redirectURI
        func assertEnds(_ code: SessionError.Code, _ wait: Task<URL, Error>, file: StaticString = #filePath, line: UInt = #line) async {
            do {
                _ = try await wait.value
                XCTFail("the wait ended with a redirect", file: file, line: line)
            } catch let error as SessionError {
                XCTAssertEqual(error.code, code, file: file, line: line)
            } catch {
                XCTFail("\(error)", file: file, line: line)
            }
        }
        let (shown, sink) = AsyncStream.makeStream(of: Void.self)
        var iterator = shown.makeAsyncIterator()

        let cancelled = Task { try await redirect.wait(for: redirectURI) { sink.yield() } }
        _ = await iterator.next()
        XCTAssertTrue(redirect.cancel())
        await assertEnds(.cancelled, cancelled)

        let taskCancelled = Task { try await redirect.wait(for: redirectURI) { sink.yield() } }
        _ = await iterator.next()
        taskCancelled.cancel()
        await assertEnds(.cancelled, taskCancelled)

        let refused = Task {
            try await redirect.wait(for: redirectURI) { throw SessionError(.invalidConfiguration, process: .authentication, message: "no handler") }
        }
        await assertEnds(.invalidConfiguration, refused)

        let older = Task { try await redirect.wait(for: redirectURI) { sink.yield() } }
        _ = await iterator.next()
        let newer = Task { try await redirect.wait(for: redirectURI) { sink.yield() } }
        await assertEnds(.cancelled, older)
        _ = await iterator.next()
        XCTAssertTrue(redirect.resume(response))
        let returned = try await newer.value
        XCTAssertEqual(returned, response)
    }
}

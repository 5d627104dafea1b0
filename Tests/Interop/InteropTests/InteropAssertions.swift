import Foundation
import SessionCore
import XCTest

extension XCTestCase {
    /// Runs `body`, which must throw a ``SessionError`` (with `code`, when given), and returns it.
    @discardableResult
    func assertThrows<T>(_ code: SessionError.Code? = nil, file: StaticString = #filePath, line: UInt = #line,
                         _ body: () async throws -> T) async -> SessionError? {
        do {
            _ = try await body()
            XCTFail("expected \(code.map { "\($0)" } ?? "a SessionError")", file: file, line: line)
        } catch let error as SessionError {
            if let code { XCTAssertEqual(error.code, code, "\(error)", file: file, line: line) }
            return error
        } catch {
            XCTFail("expected a SessionError, got \(error)", file: file, line: line)
        }
        return nil
    }
}

extension XCTestCase {
    /// Signs `session` out with revocation, then has `later` (a client that has not seen the
    /// sign-out) refresh with the revoked tokens, and returns that refusal.
    func refusalAfterRevoking(_ tokens: SessionTokens, signingOut session: SessionClient, thenRefreshingIn later: SessionClient,
                              file: StaticString = #filePath, line: UInt = #line) async throws -> SessionError? {
        try await session.signOut(revokeTokens: true)
        let remaining = await session.tokens
        XCTAssertNil(remaining, "signing out clears the session", file: file, line: line)
        try await later.setTokens(tokens.withExpiry(Date(timeIntervalSinceNow: -60)))
        return await assertThrows(.reauthenticationRequired, file: file, line: line) { try await later.validTokens() }
    }
}

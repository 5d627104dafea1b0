import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A client wired to `provider` with its clock.
func makeClient(_ provider: FakeProvider, store: TokenStore = InMemoryTokenStore(), logger: SessionLogger = SilentLogger(),
                configuration: SessionConfiguration? = nil) throws -> SessionClient {
    SessionClient(configuration: try configuration ?? FakeProvider.configuration(), store: store, transport: provider,
                  clock: provider.clock, logger: logger)
}

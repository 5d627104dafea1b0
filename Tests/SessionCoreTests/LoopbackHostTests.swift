import Foundation
@testable import SessionCore
import XCTest

/// Which hosts an http URL may name and still carry a token or a redirect: the loopback rule
/// (RFC 8252 §8.3), read byte by byte before every request that carries a token.
final class LoopbackHostTests: XCTestCase {
    func testLoopbackIPLiteralsAreTheOnesThatCount() {
        for host in ["127.0.0.1", "127.1.2.3", "127.255.255.255", "127.000.0.1", "::1", "[::1]"] {
            XCTAssertTrue(URLRules.isLoopbackIPLiteral(host: host), host)
        }
    }

    func testLookalikesOfALoopbackLiteralAreNot() {
        for host in ["", "127", "127.0.0", "127.0.0.1.5", "127..0.1", "127.0.0.", ".127.0.0.1", "0127.0.0.1",
                     "127.0.0.256", "127.0.0.1000", "127.+0.0.1", "127.-0.0.1", "128.0.0.1", "127.0.0.1a", "127.0.0.1 ",
                     "localhost", "::2", "[::1]x", "127.0.0.1.example", "١٢٧.0.0.1"] {
            XCTAssertFalse(URLRules.isLoopbackIPLiteral(host: host), host)
        }
        XCTAssertFalse(URLRules.isLoopbackIPLiteral(host: nil))
    }

    func testOnlyHTTPSOrHTTPToALoopbackHostIsASecureEndpoint() throws {
        for text in ["https://example.com/userinfo", "http://127.0.0.1:8080/userinfo", "http://[::1]/x", "http://localhost/x", "HTTP://127.0.0.1/x"] {
            XCTAssertTrue(URLRules.isSecureEndpoint(try XCTUnwrap(URL(string: text))), text)
        }
        for text in ["http://example.com/userinfo", "http://127.0.0.1.example/x", "http://128.0.0.1/x", "ftp://127.0.0.1/x", "file:///etc/passwd"] {
            XCTAssertFalse(URLRules.isSecureEndpoint(try XCTUnwrap(URL(string: text))), text)
        }
    }
}

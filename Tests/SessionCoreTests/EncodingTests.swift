import Foundation
@testable import SessionCore
import XCTest

/// The byte-level encoders the core uses on every request and ID token.
final class EncodingTests: XCTestCase {
    func testBase64URLRoundTripsEveryLengthAndMatchesTheStandardAlphabetMapped() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let encoded = Base64URL.encode(data)
            let standard = data.base64EncodedString()
            XCTAssertEqual(encoded, String(standard.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }.filter { $0 != "=" }))
            XCTAssertEqual(Base64URL.decode(encoded), data, "length \(length)")
            XCTAssertEqual(Base64URL.decode(encoded[...]), data, "a substring decodes too")
        }
        XCTAssertEqual(Base64URL.encode(Data([0xFB, 0xFF])), "-_8")
        XCTAssertNil(Base64URL.decode("-_8é"))
    }

    func testFormEncodingEscapesEveryByteButTheUnreservedOnes() {
        XCTAssertEqual(FormEncoding.escape("aZ09-._*"), "aZ09-._*")
        XCTAssertEqual(FormEncoding.escape("a b/é~+&="), "a%20b%2F%C3%A9%7E%2B%26%3D")
        XCTAssertEqual(FormEncoding.encode([("redirect_uri", "com.example:/cb?x=1"), ("scope", "openid email")]),
                       "redirect_uri=com.example%3A%2Fcb%3Fx%3D1&scope=openid%20email")
    }

    func testHeaderNamesAndTokenTypesCompareWithoutRegardToASCIICase() {
        let response = HTTPResponse(status: 200, headers: ["content-TYPE": "application/json; charset=utf-8"])
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertNil(response.header("Content-Typ"))
        XCTAssertTrue(ASCII.equalIgnoringCase("BeArEr", "bearer"))
        XCTAssertFalse(ASCII.equalIgnoringCase("Bearer", "Bearer "))
        XCTAssertFalse(ASCII.equalIgnoringCase("[", "{"), "only letters fold")
    }

    func testJSONTextQuotesAndEscapesWhatJSONRequiresAndNothingElse() throws {
        let value = "a\"b\\c/d\n\t\u{1}é\u{1F600}"
        let text = JSONText.string(value)
        XCTAssertEqual(text, "\"a\\\"b\\\\c/d\\n\\t\\u0001é\u{1F600}\"")
        let parsed = try XCTUnwrap(JSONValue.parse(Data("{\"v\":\(text)}".utf8))?.objectValue?["v"]?.stringValue)
        XCTAssertTrue(Exact.equal(parsed, value), "a JSON parser reads back the same scalars")
    }
}

import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// `AppAuthArchive` reads archives as data: hostile ones (cycles, expansion, references and
/// offsets out of range, cut short anywhere, other classes) are `storageCorrupt`, at once.
final class AppAuthArchiveTests: XCTestCase {
    /// The objects of a hand-made binary property list (one-byte references, under 15 entries each).
    private enum Object {
        case ascii(String)
        case data(Int)
        case uid(UInt8)
        case array([UInt8])
        case dictionary([(UInt8, UInt8)])
    }

    /// A `bplist00` file of `objects`, the top one at `top`, laid out as the format says.
    private func propertyList(_ objects: [Object], top: UInt8 = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .ascii(let text): bytes += [0x50 | UInt8(text.utf8.count)] + Array(text.utf8)
            case .data(let count): bytes += [0x4F, 0x12] + (0..<4).reversed().map { UInt8((count >> ($0 * 8)) & 0xFF) } + [UInt8](repeating: 0x61, count: count)
            case .uid(let index): bytes += [0x80, index]
            case .array(let references): bytes += [0xA0 | UInt8(references.count)] + references
            case .dictionary(let pairs): bytes += [0xD0 | UInt8(pairs.count)] + pairs.map(\.0) + pairs.map(\.1)
            }
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        func eight(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + eight(objects.count) + eight(Int(top)) + eight(table)
        return Data(bytes)
    }

    /// A keyed archive whose `$objects` are `objects` (indices from 5 on) and whose root is `root`.
    private func keyedArchive(root: UInt8, _ objects: [Object]) -> Data {
        // 0: the top dictionary; 1-3: its keys; 4: "NSKeyedArchiver"; then $objects' array and the objects.
        let first = UInt8(7)
        let objectReferences = (0..<objects.count).map { first + UInt8($0) }
        return propertyList([
            .dictionary([(1, 4), (2, 5), (3, 6)]),
            .ascii("$archiver"), .ascii("$objects"), .ascii("$top"),
            .ascii("NSKeyedArchiver"),
            .array(objectReferences),
            .dictionary([(8 + UInt8(objects.count), 7 + UInt8(objects.count) + 2)]),
        ] + objects + [.uid(root), .ascii("root"), .uid(root)])
    }

    private func assertCorrupt(_ data: Data, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try LegacySession(appAuthArchive: data), label, file: file, line: line) { error in
            XCTAssertEqual((error as? SessionError)?.code, .storageCorrupt, "\(label): \(error)", file: file, line: line)
        }
    }

    func testAnArchiveAsAppAuthWritesItIsRead() throws {
        var archiver = AppAuthArchiver(issuer: URL(string: "https://op.example")!, clientID: "app", refreshToken: "refresh", idToken: "a.b.c")
        archiver.scope = "openid email"
        let session = try LegacySession(appAuthArchive: try archiver.authStateArchive())
        XCTAssertEqual(session, LegacySession(issuer: URL(string: "https://op.example")!, clientID: "app",
                                              tokenEndpoint: archiver.tokenEndpoint, refreshToken: "refresh",
                                              accessToken: archiver.accessToken, idToken: "a.b.c", scopes: ["openid", "email"]))
    }

    func testEveryTruncationIsCorruptNeverACrash() throws {
        let archive = try AppAuthArchiver(issuer: URL(string: "https://op.example")!, clientID: "app", refreshToken: "r").authStateArchive()
        for length in 0..<archive.count { assertCorrupt(archive.prefix(length), "the first \(length) bytes") }
    }

    func testHostileGraphsAreCorruptAtOnce() {
        // An object whose class record is itself, and whose field points at itself.
        assertCorrupt(keyedArchive(root: 1, [.ascii("$null"), .dictionary([(2, 3)]), .ascii("$class"), .uid(1)]), "a class that is itself")
        // A property list array that contains itself: nesting without end.
        assertCorrupt(propertyList([.array([0])]), "an array inside itself")
        // Twenty arrays each holding the next twice: 2^20 paths to the last through 21 small
        // objects. The reader stops at its budget instead of expanding them.
        let levels = (0..<20).map { Object.array([UInt8($0 + 1), UInt8($0 + 1)]) } + [.ascii("x")]
        assertCorrupt(propertyList(levels), "a small file that expands")
        XCTAssertThrowsError(try LegacySession(appAuthArchive: propertyList(levels))) { error in
            XCTAssertTrue((error as? SessionError)?.message.contains("expands to more than") == true, "\(error)")
        }
        // Fourteen arrays each holding the next twice, the last a 60 kB data object: a 60 kB file
        // whose 2^14 references to that object would each copy it, about 1 GB. The reader stops
        // at its byte budget.
        let copies = (0..<14).map { Object.array([UInt8($0 + 1), UInt8($0 + 1)]) } + [.data(60_000)]
        XCTAssertThrowsError(try LegacySession(appAuthArchive: propertyList(copies))) { error in
            XCTAssertEqual((error as? SessionError)?.code, .storageCorrupt)
            XCTAssertTrue((error as? SessionError)?.message.contains("bytes of data") == true, "\(error)")
        }
        // References and offsets that point nowhere.
        assertCorrupt(keyedArchive(root: 200, [.ascii("$null")]), "a root reference past the objects")
        var bad = propertyList([.array([9])])
        assertCorrupt(bad, "an array member past the objects")
        bad[bad.count - 1] = 0xFF
        assertCorrupt(bad, "an offset table past the end")
        // Well-formed archives that are not an AppAuth session.
        assertCorrupt(propertyList([.dictionary([(1, 2)]), .ascii("$archiver"), .ascii("SomethingElse")]), "another archiver")
        assertCorrupt(keyedArchive(root: 1, [.ascii("$null"), .ascii("just a string")]), "a root that is a string")
        assertCorrupt(Data(try! PropertyListSerialization.data(fromPropertyList: ["$archiver": "NSKeyedArchiver"], format: .xml, options: 0)),
                      "an XML property list")
    }

    func testARootOfAnotherClassIsCorrupt() throws {
        let other = try NSKeyedArchiver.archivedData(withRootObject: ["refreshToken": "r"] as NSDictionary, requiringSecureCoding: true)
        assertCorrupt(other, "an NSDictionary")
        let fetcher = try AppAuthArchiver(issuer: nil, clientID: "app", refreshToken: "r").fetcherAuthorizationArchive(userID: "1", email: "e")
        assertCorrupt(fetcher, "GTMAppAuth's wrapper where an OIDAuthState is expected")
        XCTAssertEqual(try LegacySession(fetcherAuthorizationArchive: fetcher).refreshToken, "r")
    }
}

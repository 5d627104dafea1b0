import Foundation
import XCTest

/// The core stays an OpenID Connect client: no socket server, no UI, no browser agent, no
/// vendor's resource API or vocabulary (netID's flows are the facade's; the core speaks scopes). Those live in modules of their own (the README's product table; SessionCore's article "How it fits together").
final class ModuleSeamTests: XCTestCase {
    func testTheCoreImportsNoSocketUIOrBrowserCode() throws {
        let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SessionCore")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: core, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThan(files.count, 40)
        let forbidden = ["import LoopbackHTTP", "import UIKit", "import AppKit", "import AuthenticationServices",
                         "import SessionPermissions", "socket(", "permission_management", "AuthFlow"]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for needle in forbidden where text.contains(needle) {
                XCTFail("\(file.lastPathComponent) contains \(needle)")
            }
        }
    }
}

import Foundation
import XCTest

/// One of the Project Wycheproof files vendored under `Tests/Vectors/Wycheproof/`.
struct WycheproofVectors {
    /// The file's `testGroups`, as JSON objects.
    let groups: [[String: Any]]

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/Wycheproof")

    /// Reads `name`.json.
    static func load(_ name: String) throws -> WycheproofVectors {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(name).json"))
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return WycheproofVectors(groups: try XCTUnwrap(root["testGroups"] as? [[String: Any]]))
    }

    /// Bytes from a hex string.
    static func bytes(_ hex: String) -> Data {
        var data = Data(capacity: hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return data
    }
}

/// What a run of vectors found: how many of each verdict agreed with ours, and which did not.
struct WycheproofTally: CustomStringConvertible {
    var valid = 0, invalid = 0, acceptableAccepted = 0, acceptableRefused = 0, notApplicable = 0
    var disagreements: [String] = []

    /// Records one vector: `expected` is Wycheproof's result, `accepted` ours.
    mutating func record(id: Any, comment: String, expected: String, accepted: Bool) {
        switch (expected, accepted) {
        case ("valid", true): valid += 1
        case ("invalid", false): invalid += 1
        case ("acceptable", true): acceptableAccepted += 1
        case ("acceptable", false): acceptableRefused += 1
        default: disagreements.append("tcId \(id) (\(comment)): Wycheproof says \(expected), we \(accepted ? "accepted" : "refused")")
        }
    }

    var description: String {
        "\(valid) valid accepted, \(invalid) invalid refused, acceptable: \(acceptableAccepted) accepted and "
            + "\(acceptableRefused) refused, \(notApplicable) not applicable, \(disagreements.count) disagreements"
    }
}

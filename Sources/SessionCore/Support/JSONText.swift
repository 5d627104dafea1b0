/// JSON text written by hand where an encoder's cost shows: a proof made for every request.
package enum JSONText {
    /// `value` as a JSON string (RFC 8259 §7): quoted, with `"`, `\` and control characters
    /// escaped; everything else as it is.
    package static func string(_ value: String) -> String {
        var text = "\""
        text.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

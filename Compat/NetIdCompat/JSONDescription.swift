import Foundation

/// The JSON text netID's models use as their `description`, or `{}` when the value cannot be
/// encoded. Keys are sorted (netID's order is the encoder's), so the same value always reads the same.
func jsonDescription<Value: Encodable>(of value: Value) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return "{}" }
    return text
}

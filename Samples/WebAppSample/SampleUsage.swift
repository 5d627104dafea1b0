/// A command line the sample cannot run, and what to say about it.
struct SampleUsage: Error {
    let text: String

    static let message = SampleUsage(text: """
        usage: webapp-sample provider [--port N] --app URL [--app URL ...]
               webapp-sample app --issuer URL [--client-id ID] [--port N] [--public-origin URL] [--name NAME]
                                 [--postgres CONNINFO_FILE --sealing-key-file FILE]
        """)

    /// The value after `option` in `arguments`, which it takes out; nil when the option is absent.
    static func take(_ option: String, from arguments: inout [String]) throws -> String? {
        guard let index = arguments.firstIndex(of: option) else { return nil }
        guard index + 1 < arguments.count else { throw SampleUsage(text: "\(option) needs a value") }
        let value = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
        return value
    }
}

// webapp-sample: a web application that signs people in with SessionWebApp, and the provider to
// try it with.
//
//   webapp-sample provider --port 9000 --app http://127.0.0.1:8081
//   webapp-sample app --issuer http://127.0.0.1:9000 --port 8081 [--postgres CONNINFO_FILE --sealing-key-file FILE]
//
// Two `app` instances on one PostgreSQL serve the same sessions: sign in on one, use either, sign
// out on one and the other no longer knows you; a sign-out at the provider ends both.
import Foundation

do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else { throw SampleUsage.message }
    arguments.removeFirst()
    switch command {
    case "provider": try ProviderCommand(arguments).run()
    case "app": try await AppCommand(arguments).run()
    default: throw SampleUsage.message
    }
} catch let usage as SampleUsage {
    FileHandle.standardError.write(Data("\(usage.text)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("webapp-sample: \(error)\n".utf8))
    exit(1)
}

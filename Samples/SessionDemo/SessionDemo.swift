import Foundation
import SessionCore

/// `swift run session-demo`: see `DemoOptions.help`.
@main
enum SessionDemo {
    static func main() async {
        let console = Console()
        let options: DemoOptions
        do {
            options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch let error as DemoOptions.UsageError {
            console.failure(error.message)
            exit(2)
        } catch {
            exit(2)
        }
        if options.mode == .help {
            console.line(DemoOptions.help)
            exit(0)
        }
        if options.resource != nil { exit(await ResourceWalk(options: options, console: console).run()) }
        let environment: DemoEnvironment
        do {
            environment = try await DemoEnvironment.make(options, console: console)
        } catch let error as SessionError {
            console.failure("cannot start: \(CallbackPrinter.describe(error))")
            exit(error.code == .invalidConfiguration ? 2 : 3)
        } catch {
            console.failure("cannot start the embedded provider: \(error.localizedDescription)")
            exit(3)
        }
        let code = options.mode == .interactive
            ? await InteractiveSession(environment: environment, console: console).run()
            : await DemoWalk(environment: environment, console: console).run()
        environment.localProvider?.stop()
        exit(code)
    }
}

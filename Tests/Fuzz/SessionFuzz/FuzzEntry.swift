import Foundation

/// libFuzzer's driver, linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                             _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The program's entry: SwiftPM links an executable target's `main` to `<Module>_main`, so
/// libFuzzer's own `main` is replaced by this call of its driver.
@_cdecl("SessionFuzz_main")
public func sessionFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    if let seeds = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] {
        do {
            try LegacyArchiveTarget.writeSeeds(to: URL(fileURLWithPath: seeds))
            return 0
        } catch {
            fatalError("cannot write the seeds: \(error)")
        }
    }
    if FuzzTarget.selected == .logoutToken { WebTargets.fetchProviderDocuments() }
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}

/// libFuzzer's callback: runs the target named by `FUZZ_TARGET` on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzTarget.selected.run(data)
    return 0
}

/// The fuzzed parsers. Each accepts any bytes and must answer with a value or its documented
/// error type; anything else stops the run with the input that caused it.
enum FuzzTarget: String, CaseIterable {
    case jws, discovery, tokenResponse = "token-response", authorizationResponse = "authorization-response"
    case permissions, sessionFile = "session-file", httpRequest = "http-request", privateKey = "private-key"
    case appAuthArchive = "appauth-archive", responseHeaders = "response-headers", sealedAuthorization = "sealed-authorization"
    case pushedAuthorization = "pushed-authorization", dpopNonce = "dpop-nonce"
    case resourceChallenge = "resource-challenge", resourceMetadata = "resource-metadata", clientRegistration = "client-registration"
    case userInfo = "userinfo", webRequest = "web-request", logoutToken = "logout-token"
    case deviceAuthorization = "device-authorization", jwks

    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError("set FUZZ_TARGET to one of: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return target
    }()

    func run(_ data: Data) {
        switch self {
        case .jws: CoreTargets.jws(data)
        case .discovery: CoreTargets.discovery(data)
        case .tokenResponse: CoreTargets.tokenResponse(data)
        case .authorizationResponse: CoreTargets.authorizationResponse(data)
        case .permissions: CoreTargets.permissions(data)
        case .sessionFile: CoreTargets.sessionFile(data)
        case .httpRequest: HTTPRequestTarget.run(data)
        case .privateKey: CoreTargets.privateKey(data)
        case .appAuthArchive: LegacyArchiveTarget.run(data)
        case .responseHeaders: ResponseHeaderTarget.run(data)
        case .sealedAuthorization: SealedAuthorizationTarget.run(data)
        case .pushedAuthorization: CoreTargets.pushedAuthorization(data)
        case .dpopNonce: CoreTargets.dpopNonce(data)
        case .resourceChallenge: CoreTargets.resourceChallenge(data)
        case .resourceMetadata: CoreTargets.resourceMetadata(data)
        case .clientRegistration: CoreTargets.clientRegistration(data)
        case .userInfo: CoreTargets.userInfo(data)
        case .webRequest: WebTargets.request(data)
        case .logoutToken: WebTargets.logoutToken(data)
        case .deviceAuthorization: CoreTargets.deviceAuthorization(data)
        case .jwks: CoreTargets.jwks(data)
        }
    }
}

/// Runs `body`, for which only success or an error of type `E` is an answer.
func expectOnly<E: Error>(_ type: E.Type, _ body: () throws -> Void) {
    do {
        try body()
    } catch is E {
        return
    } catch {
        fatalError("unexpected error type \(Swift.type(of: error)): \(error)")
    }
}

// swift-tools-version:6.0
import PackageDescription

// SessionService: an OpenID Connect client whose modern core (SessionCore) is wrapped by a
// legacy-style facade. Dependencies point one way: facade -> core -> CLibCrypto on Linux, the only
// crypto library (Sources/SessionCore/Crypto/ holds every call of it), and core -> CLibCurl on
// Linux, its HTTP (Sources/SessionCore/Transport/Curl/). The agents that
// show the provider's page live beside the core, each in a module of its own: SessionLoopback
// (the browser and a loopback listener, the only user of LoopbackHTTP's sockets besides tests)
// and SessionWebAuthentication (AuthenticationServices' in-app browser session on Apple
// platforms; its callback rules everywhere). The facade picks the platform's default agent.
// netID's permission center is SessionPermissions, a resource API on the core's sendAuthorized hook.
let package = Package(
    name: "SessionService",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "SessionCore", targets: ["SessionCore"]),
        .library(name: "SessionLoopback", targets: ["SessionLoopback"]),
        .library(name: "SessionWebAuthentication", targets: ["SessionWebAuthentication"]),
        .library(name: "SessionPermissions", targets: ["SessionPermissions"]),
        // The desktop keyring on Linux (libsecret, loaded when first used): a product of its own.
        .library(name: "SessionKeyring", targets: ["SessionKeyring"]),
        // Sessions in PostgreSQL for a fleet of servers on Linux (libpq, loaded when first used).
        .library(name: "SessionPostgres", targets: ["SessionPostgres"]),
        // Readers of the sessions legacy SDKs stored (binary property lists, keyed archives).
        .library(name: "LegacySessionReaders", targets: ["LegacySessionReaders"]),
        // Sign-in for web applications: one server-side session per browser login.
        .library(name: "SessionWebApp", targets: ["SessionWebApp"]),
        .library(name: "SessionMCP", targets: ["SessionMCP"]),
        .library(name: "SessionFacade", targets: ["SessionFacade"]),
        .library(name: "SessionTesting", targets: ["SessionTesting"]),
        .library(name: "SessionFacadeTesting", targets: ["SessionFacadeTesting"]),
        .library(name: "NetIdCompat", targets: ["NetIdCompat"]),
        .library(name: "GrabIdCompat", targets: ["GrabIdCompat"]),
        .library(name: "GoogleSignInCompat", targets: ["GoogleSignInCompat"]),
        .library(name: "YeboIDCompat", targets: ["YeboIDCompat"]),
        .executable(name: "session-demo", targets: ["SessionDemo"]),
        .executable(name: "session-bench", targets: ["SessionBench"]),
        .executable(name: "netid-sample", targets: ["NetIdSample"]),
        .executable(name: "grabid-sample", targets: ["GrabIdSample"]),
        .executable(name: "googlesignin-sample", targets: ["GoogleSignInSample"]),
        .executable(name: "yeboid-sample", targets: ["YeboIDSample"]),
        .executable(name: "agentctl", targets: ["AgentCtl"]),
        .executable(name: "agentd", targets: ["AgentDaemon"]),
        .executable(name: "webapp-sample", targets: ["WebAppSample"]),
    ],
    targets: [
        // The C libraries are loaded at run time by soname (dlopen), so building needs none of
        // their headers or -dev packages; each shim.h transcribes the declarations it uses, and
        // Tests/ABI/run.sh checks them against the real headers in CI.
        // OpenSSL 3's libcrypto (libcrypto.so.3).
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto"),
        // libcurl (libcurl.so.4): HTTP on Linux goes through it rather than FoundationNetworking,
        // whose cookie storage leaves a directory in $XDG_DATA_HOME (CurlTransport).
        .systemLibrary(name: "CLibCurl", path: "Sources/CLibCurl"),
        // libsecret (libsecret-1.so.0), for the desktop keyring.
        .systemLibrary(name: "CLibSecret", path: "Sources/CLibSecret"),
        // libpq (libpq.so.5), for sessions in PostgreSQL.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),
        .target(name: "LoopbackHTTP"),
        .target(
            name: "SessionCore",
            dependencies: [
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
                .target(name: "CLibCurl", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(name: "SessionLoopback", dependencies: ["SessionCore", "LoopbackHTTP"]),
        .target(name: "SessionWebAuthentication", dependencies: ["SessionCore"]),
        .target(name: "SessionPermissions", dependencies: ["SessionCore"]),
        .target(name: "SessionKeyring", dependencies: [
            "SessionCore",
            .target(name: "CLibSecret", condition: .when(platforms: [.linux])),
        ]),
        .target(name: "SessionPostgres", dependencies: [
            "SessionCore",
            "SessionWebApp",
            .target(name: "CLibPQ", condition: .when(platforms: [.linux])),
        ]),
        .target(name: "LegacySessionReaders", dependencies: ["SessionCore"]),
        .target(name: "SessionWebApp", dependencies: ["SessionCore"]),
        // Signing in to an MCP server from its URL alone, on the core's vendor-neutral protected-resource parts.
        .target(name: "SessionMCP", dependencies: ["SessionCore"]),
        .target(name: "SessionFacade", dependencies: ["SessionCore", "SessionPermissions", "SessionWebAuthentication", "LegacySessionReaders"]),
        .target(
            name: "SessionTesting",
            dependencies: [
                "SessionCore",
                "SessionPermissions",
                "LoopbackHTTP",
                // Signing keys for the test providers come from the platform's crypto library.
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
            ]
        ),
        // The facade's test double: a listener that records every callback and the queue it ran on.
        .target(name: "SessionFacadeTesting", dependencies: ["SessionFacade", "SessionCore", "SessionPermissions"]),
        .target(name: "NetIdCompat", dependencies: ["SessionFacade", "SessionCore", "SessionPermissions", "LegacySessionReaders"], path: "Compat/NetIdCompat"),
        .target(name: "GrabIdCompat", dependencies: ["SessionFacade", "SessionCore", "LegacySessionReaders"], path: "Compat/GrabIdCompat"),
        .target(name: "GoogleSignInCompat", dependencies: ["SessionFacade", "SessionCore", "LegacySessionReaders"], path: "Compat/GoogleSignInCompat"),
        // YeboID for Swift is async-first: its compat module sits on the core, not the facade.
        .target(name: "YeboIDCompat", dependencies: ["SessionCore", "SessionWebAuthentication"], path: "Compat/YeboIDCompat"),
        .executableTarget(
            name: "SessionDemo",
            dependencies: ["SessionFacade", "SessionCore", "SessionLoopback", "SessionKeyring", "SessionTesting", "SessionMCP"],
            path: "Samples/SessionDemo"
        ),
        .executableTarget(
            name: "SessionBench",
            dependencies: ["SessionFacade", "SessionCore", "SessionTesting", "SessionPostgres", "SessionWebApp",
                           .target(name: "CLibCurl", condition: .when(platforms: [.linux])),
                           .target(name: "CLibPQ", condition: .when(platforms: [.linux]))],
            path: "Samples/SessionBench",
            exclude: ["README.md"]
        ),
        // One legacy-style sample per Compat module, in Swift 5 mode like the apps they stand for.
        .executableTarget(
            name: "NetIdSample",
            dependencies: ["NetIdCompat", "SessionTesting"],
            path: "Samples/NetIdSample",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "GrabIdSample",
            dependencies: ["GrabIdCompat", "SessionTesting"],
            path: "Samples/GrabIdSample",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "GoogleSignInSample",
            dependencies: ["GoogleSignInCompat", "SessionTesting"],
            path: "Samples/GoogleSignInSample",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // A headless sync agent on the device grant: a command line and a daemon sharing one session file.
        .executableTarget(name: "AgentCtl", dependencies: ["SessionCore"], path: "Samples/AgentCtl"),
        .executableTarget(name: "AgentDaemon", dependencies: ["SessionCore"], path: "Samples/AgentDaemon"),
        // A web application of one or more instances signing people in with SessionWebApp.
        .executableTarget(name: "WebAppSample", dependencies: ["SessionWebApp", "SessionCore", "SessionPostgres", "SessionTesting", "LoopbackHTTP"],
                          path: "Samples/WebAppSample"),
        // YeboID for Swift is a Swift 6-era SDK: its sample is Swift 6 code.
        .executableTarget(
            name: "YeboIDSample",
            dependencies: ["YeboIDCompat", "SessionCore", "SessionTesting"],
            path: "Samples/YeboIDSample"
        ),
        .testTarget(name: "LoopbackHTTPTests", dependencies: ["LoopbackHTTP"]),
        // What the client tests share: a LocalProvider and a client on it, a recording store.
        .target(name: "ClientTestSupport", dependencies: ["SessionCore", "SessionFacade", "SessionPermissions", "SessionTesting", "SessionWebApp"],
                path: "Tests/ClientTestSupport"),
        .testTarget(name: "SessionCoreTests", dependencies: ["SessionCore", "SessionTesting", "LoopbackHTTP", "ClientTestSupport"]),
        .testTarget(name: "SessionLoopbackTests", dependencies: ["SessionLoopback", "SessionCore", "SessionTesting", "LoopbackHTTP", "ClientTestSupport"]),
        .testTarget(name: "SessionWebAuthenticationTests", dependencies: ["SessionWebAuthentication", "SessionCore", "SessionTesting", "ClientTestSupport"]),
        .testTarget(name: "SessionMCPTests", dependencies: ["SessionMCP", "SessionCore", "SessionTesting", "ClientTestSupport"]),
        .testTarget(name: "SessionWebAppTests", dependencies: ["SessionWebApp", "SessionCore", "SessionTesting", "ClientTestSupport", "LoopbackHTTP"]),
        .testTarget(name: "SessionPermissionsTests", dependencies: ["SessionPermissions", "SessionCore", "SessionTesting", "ClientTestSupport"]),
        .testTarget(name: "SessionFacadeTests", dependencies: ["SessionFacade", "SessionCore", "SessionWebAuthentication", "SessionTesting", "SessionFacadeTesting",
                                                        "LegacySessionReaders"]),
        // Runs the built session-demo; shared by the demo's tests and the interop tests.
        .target(name: "DemoTestSupport", path: "Tests/DemoTestSupport"),
        .testTarget(name: "SessionDemoTests", dependencies: ["DemoTestSupport", "SessionTesting", "SessionCore"]),
        // A client process the crash tests kill with SIGKILL mid-refresh and mid-sign-out.
        .executableTarget(name: "StoreCrashChild", dependencies: ["SessionCore", "SessionTesting"], path: "Tests/StoreCrashChild"),
        // Legacy apps are usually Swift 5 code: the compat tests are compiled as such.
        .testTarget(
            name: "GrabIdCompatTests",
            dependencies: ["GrabIdCompat", "SessionFacade", "SessionCore", "SessionTesting", "SessionFacadeTesting", "LegacySessionReaders"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "GoogleSignInCompatTests",
            dependencies: ["GoogleSignInCompat", "SessionCore", "SessionTesting", "SessionFacadeTesting", "SessionFacade", "LegacySessionReaders"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The same modules from Swift 6 language mode.
        .testTarget(
            name: "CompatSwift6Tests",
            dependencies: ["NetIdCompat", "GrabIdCompat", "GoogleSignInCompat", "YeboIDCompat", "SessionFacade", "SessionCore", "SessionTesting", "SessionFacadeTesting"]
        ),
        .testTarget(
            name: "YeboIDCompatTests",
            dependencies: ["YeboIDCompat", "SessionCore", "SessionTesting"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "NetIdCompatTests",
            dependencies: ["NetIdCompat", "SessionFacade", "SessionCore", "SessionTesting", "SessionFacadeTesting", "LegacySessionReaders"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Interop tests run only through Tests/Interop/run-interop.sh, which starts the provider they
// need and sets SESSION_INTEROP=1; plain `swift test` does not build them.
if Context.environment["SESSION_INTEROP"] == "1" {
    package.targets.append(.testTarget(
        name: "InteropTests",
        dependencies: ["SessionCore", "SessionLoopback", "SessionTesting", "SessionWebApp", "SessionMCP", "LoopbackHTTP", "DemoTestSupport"],
        path: "Tests/Interop/InteropTests"
    ))
}

// The keyring tests run only through Tests/Keyring/run.sh, which starts a D-Bus session with an
// unlocked gnome-keyring-daemon in it and sets SESSION_KEYRING=1.
if Context.environment["SESSION_KEYRING"] == "1" {
    package.targets.append(.testTarget(
        name: "KeyringTests",
        dependencies: ["SessionKeyring", "SessionCore", "SessionTesting",
                       .target(name: "CLibSecret", condition: .when(platforms: [.linux]))],
        path: "Tests/Keyring/KeyringTests"
    ))
}

// Fuzz targets build only through Tests/Fuzz/run.sh, with libFuzzer and AddressSanitizer
// (-sanitize=fuzzer,address), which provides their main; plain builds never see them.
if Context.environment["SESSION_FUZZ"] == "1" {
    package.products.append(.executable(name: "session-fuzz", targets: ["SessionFuzz"]))
    package.targets.append(.executableTarget(
        name: "SessionFuzz",
        dependencies: ["SessionCore", "SessionLoopback", "SessionPermissions", "SessionFacade", "SessionTesting", "SessionWebApp", "LoopbackHTTP",
                       "LegacySessionReaders"],
        path: "Tests/Fuzz/SessionFuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    ))
}

// The PostgreSQL tests run only through Tests/Postgres/run.sh, which starts a throw-away cluster on
// 127.0.0.1 and sets SESSION_POSTGRES=1; their fleet's nodes are session-bench's (--fleet-node).
if Context.environment["SESSION_POSTGRES"] == "1" {
    package.targets.append(.testTarget(
        name: "PostgresTests",
        dependencies: ["SessionPostgres", "SessionCore", "SessionWebApp", "SessionTesting", "ClientTestSupport", "DemoTestSupport"],
        path: "Tests/Postgres/PostgresTests"
    ))
}

#!/usr/bin/env bash
# Type-checks the libraries, SessionTesting, session-demo and the samples as an Apple platform compiles them,
# on Linux: the Apple-only code (CryptoKit and Security crypto, the keychain adapter, the
# web-authentication agent and its window lookup, UIKit's view controller as the facade's
# presentation anchor) against the Apple declarations in Declarations/, transcribed from Apple's
# documentation, in two flavours: iOS (UIKit) and macOS (AppKit). Foundation, Glibc and
# FoundationNetworking stay Linux's, so the Darwin branches of the socket and file code are not
# checked. This proves the code is consistent with those declarations, and no more: nothing here
# runs on an Apple platform.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build --target LoopbackHTTP ${SWIFT_BUILD_FLAGS:-} >/dev/null
bin="$(swift build --show-bin-path)"
declarations=Tests/AppleTypeCheck/Declarations
swift_files() { find "$@" -name '*.swift' | sort; }
apple_only=$(grep -l '^#if .*canImport(\(CryptoKit\|Security\|AuthenticationServices\|UIKit\))' $(swift_files Sources Compat) | wc -l)

for flavour in iOS macOS; do
    out=".build/apple-typecheck/$flavour"
    rm -rf "$out" && mkdir -p "$out"
    cp -R "$bin/Modules/LoopbackHTTP.swiftmodule" "$out/"
    ui=$([ "$flavour" = iOS ] && echo UIKit || echo AppKit)
    for module in Security CryptoKit "$ui" AuthenticationServices; do
        swiftc -emit-module -parse-as-library -swift-version 6 -module-name "$module" -I "$out" \
            -o "$out/$module.swiftmodule" "$declarations/$module.swift"
    done
    # The libraries in dependency order, each against the Apple-flavoured modules before it.
    check() {
        local module=$1; shift
        swiftc -emit-module -parse-as-library -swift-version 6 -warnings-as-errors -package-name sessionservice \
            -module-name "$module" -I "$out" -o "$out/$module.swiftmodule" $(swift_files "$@")
    }
    check SessionCore Sources/SessionCore Tests/AppleTypeCheck/AppleOnlySymbols.swift
    check SessionWebAuthentication Sources/SessionWebAuthentication Tests/AppleTypeCheck/AppleOnlyAgentSymbols.swift
    check SessionLoopback Sources/SessionLoopback
    check SessionPermissions Sources/SessionPermissions
    # Linux-only (libsecret): on Apple platforms the module is empty, which is what is checked.
    check SessionKeyring Sources/SessionKeyring
    # Linux servers only (libpq): likewise empty on Apple platforms.
    check SessionPostgres Sources/SessionPostgres
    check LegacySessionReaders Sources/LegacySessionReaders
    check SessionWebApp Sources/SessionWebApp
    check SessionMCP Sources/SessionMCP
    check SessionFacade Sources/SessionFacade
    check NetIdCompat Compat/NetIdCompat
    check GrabIdCompat Compat/GrabIdCompat
    check GoogleSignInCompat Compat/GoogleSignInCompat
    check YeboIDCompat Compat/YeboIDCompat
    check YeboIDReadme Tests/AppleTypeCheck/YeboIDReadme.swift
    check SessionTesting Sources/SessionTesting Tests/AppleTypeCheck/AppleOnlyTestingSymbols.swift
    check SessionDemo Samples/SessionDemo
    # The legacy-style samples (top-level code, Swift 5 mode as in Package.swift) are console
    # programs, which exist on macOS only; they pass themselves where an iOS app passes its
    # view controller.
    samples=""
    if [ "$flavour" = macOS ]; then
        for sample in NetIdSample GrabIdSample GoogleSignInSample; do
            swiftc -typecheck -swift-version 5 -warnings-as-errors -module-name "$sample" -I "$out" "Samples/$sample/main.swift"
        done
        # YeboID for Swift is Swift 6-era code, and so is its sample.
        swiftc -typecheck -swift-version 6 -warnings-as-errors -package-name sessionservice -module-name YeboIDSample -I "$out" \
            Samples/YeboIDSample/main.swift
        samples=" and the four samples"
    fi
    echo "apple-typecheck: $flavour: SessionCore, SessionWebAuthentication, SessionLoopback, SessionPermissions, SessionKeyring (empty), SessionPostgres (empty), LegacySessionReaders, SessionWebApp, SessionMCP, SessionFacade, NetIdCompat, GrabIdCompat, GoogleSignInCompat, YeboIDCompat (and its README's code), SessionTesting, session-demo$samples type-check ($apple_only files with Apple-only code)"
done

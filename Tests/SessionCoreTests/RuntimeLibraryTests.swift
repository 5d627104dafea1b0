#if os(Linux)
@testable import SessionCore
import XCTest

/// libcurl and libcrypto are loaded at run time (nothing to build against): a machine without
/// them, or with a library lacking a function, gets an error that says what to install.
final class RuntimeLibraryTests: XCTestCase {
    func testAMissingLibcurlIsAnErrorNamingTheLibraryAndThePackage() {
        XCTAssertThrowsError(try LibCurl.load(soname: "libcurl-absent-here.so.4")) { error in
            let error = error as? HTTPTransportError
            XCTAssertEqual(error?.kind, .cannotConnect)
            XCTAssertEqual(error?.detail, "libcurl (libcurl-absent-here.so.4) could not be loaded: install libcurl 7.85 or later (Debian and Ubuntu: the libcurl4 package; Fedora: libcurl)")
        }
    }

    func testALibraryWithoutLibcurlsFunctionsNamesTheMissingOne() {
        // zlib is there wherever Foundation is, and has none of libcurl's functions.
        XCTAssertThrowsError(try LibCurl.load(soname: "libz.so.1")) { error in
            XCTAssertEqual((error as? HTTPTransportError)?.detail,
                           "libcurl (libz.so.1) lacks curl_global_init: install libcurl 7.85 or later (Debian and Ubuntu: the libcurl4 package; Fedora: libcurl)")
        }
    }

    func testAMissingLibcryptoIsACryptoFailureNamingTheLibraryAndThePackage() {
        XCTAssertThrowsError(try LibCrypto.load(soname: "libcrypto-absent-here.so.3")) { error in
            let error = error as? SessionError
            XCTAssertEqual(error?.code, .cryptoFailure)
            XCTAssertEqual(error?.message, "OpenSSL's libcrypto (libcrypto-absent-here.so.3) could not be loaded: install OpenSSL 3 (Debian and Ubuntu: the libssl3 package, libssl3t64 on newer releases; Fedora: openssl-libs)")
        }
    }

    func testALibraryWithoutOpenSSL3sFunctionsNamesTheMissingOne() {
        XCTAssertThrowsError(try LibCrypto.load(soname: "libz.so.1")) { error in
            XCTAssertEqual((error as? SessionError)?.message,
                           "OpenSSL's libcrypto (libz.so.1) lacks EVP_Digest: install OpenSSL 3 (Debian and Ubuntu: the libssl3 package, libssl3t64 on newer releases; Fedora: openssl-libs)")
        }
    }

    /// A library planted beside the executable (its RUNPATH has `$ORIGIN`, as SwiftPM sets it) is
    /// never loaded in place of the system's: only the system's library directories are searched.
    func testALibraryPlantedBesideTheExecutableIsNotLoaded() throws {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let name = "libsessionservice-planted-\(getpid()).so.1"
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("planted-\(getpid()).c")
        try "int planted(void) { return 1; }\n".write(to: source, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: source) }
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-shared", "-fPIC", "-o", beside.appendingPathComponent(name).path, source.path]
        do { try compiler.run() } catch { throw XCTSkip("no C compiler to build the planted library: \(error)") }
        compiler.waitUntilExit()
        try XCTSkipUnless(compiler.terminationStatus == 0, "the planted library could not be built")
        defer { try? FileManager.default.removeItem(at: beside.appendingPathComponent(name)) }
        XCTAssertThrowsError(try LibCrypto.load(soname: name)) { error in
            // Loaded, it would be a library that lacks EVP_Digest; not found, it is one that could not be loaded.
            XCTAssertTrue((error as? SessionError)?.message.contains("could not be loaded") == true, "\(error)")
        }
        XCTAssertThrowsError(try LibCurl.load(soname: name)) { error in
            XCTAssertTrue((error as? HTTPTransportError)?.detail.contains("could not be loaded") == true, "\(error)")
        }
    }

    func testTheSystemsLibrariesLoadWithEveryFunction() throws {
        XCTAssertNoThrow(try LibCurl.load(soname: "libcurl.so.4"))
        XCTAssertNoThrow(try LibCrypto.load(soname: "libcrypto.so.3"))
    }
}
#endif

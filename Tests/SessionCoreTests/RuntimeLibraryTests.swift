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

    func testTheSystemsLibrariesLoadWithEveryFunction() throws {
        XCTAssertNoThrow(try LibCurl.load(soname: "libcurl.so.4"))
        XCTAssertNoThrow(try LibCrypto.load(soname: "libcrypto.so.3"))
    }
}
#endif

#if canImport(CLibCrypto)
import CLibCrypto

/// libcrypto's functions, loaded at run time (`Sources/CLibCrypto/shim.h`): nothing of OpenSSL
/// is needed to build, only `libcrypto.so.3` to run.
package enum LibCrypto {
    /// The process's libcrypto, loaded on first use. Throws ``SessionError`` `cryptoFailure`
    /// saying which library or symbol is missing and what to install, when it cannot be used.
    package static func functions() throws -> clibcrypto_api {
        try usable(clibcrypto().pointee, soname: String(cString: clibcrypto_soname()))
    }

    /// libcrypto loaded from `soname` apart from the process's (for tests: a library that is not
    /// there, or one that lacks OpenSSL 3's functions).
    package static func load(soname: String) throws -> clibcrypto_api {
        var api = clibcrypto_api()
        clibcrypto_load(&api, soname)
        return try usable(api, soname: soname)
    }

    private static func usable(_ api: clibcrypto_api, soname: String) throws -> clibcrypto_api {
        // OpenSSL 1.1's libcrypto.so.1.1 lacks the OSSL_PARAM key import used here: only OpenSSL 3 will do.
        let install = "install OpenSSL 3 (Debian and Ubuntu: the libssl3 package, libssl3t64 on newer releases; Fedora: openssl-libs)"
        switch Int(api.status) {
        case Int(CLIBCRYPTO_LOADED.rawValue):
            return api
        case Int(CLIBCRYPTO_NO_SYMBOL.rawValue):
            let symbol = api.missing_symbol.map { String(cString: $0) } ?? "a function"
            throw PlatformCrypto.failure("OpenSSL's libcrypto (\(soname)) lacks \(symbol): \(install)")
        default:
            throw PlatformCrypto.failure("OpenSSL's libcrypto (\(soname)) could not be loaded: \(install)")
        }
    }
}
#endif

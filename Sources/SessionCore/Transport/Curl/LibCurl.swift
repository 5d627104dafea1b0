#if canImport(CLibCurl)
import CLibCurl

/// libcurl's functions, loaded at run time (`Sources/CLibCurl/shim.h`): nothing of libcurl is
/// needed to build, only `libcurl.so.4` to run.
enum LibCurl {
    /// The process's libcurl, loaded and initialized on first use. Throws
    /// ``HTTPTransportError/Kind/cannotConnect`` saying which library or symbol is missing and
    /// what to install, when libcurl cannot be used.
    static func functions() throws -> clibcurl_api {
        try usable(clibcurl().pointee, soname: String(cString: clibcurl_soname()))
    }

    /// libcurl loaded from `soname` apart from the process's (for tests: a library that is not
    /// there, or one that lacks libcurl's functions).
    static func load(soname: String) throws -> clibcurl_api {
        var api = clibcurl_api()
        clibcurl_load(&api, soname)
        return try usable(api, soname: soname)
    }

    private static func usable(_ api: clibcurl_api, soname: String) throws -> clibcurl_api {
        let install = "install libcurl 7.85 or later (Debian and Ubuntu: the libcurl4 package; Fedora: libcurl)"
        switch Int(api.status) {
        case Int(CLIBCURL_LOADED.rawValue):
            return api
        case Int(CLIBCURL_NO_LIBRARY.rawValue):
            throw HTTPTransportError(.cannotConnect, detail: "libcurl (\(soname)) could not be loaded: \(install)")
        case Int(CLIBCURL_NO_SYMBOL.rawValue):
            let symbol = api.missing_symbol.map { String(cString: $0) } ?? "a function"
            throw HTTPTransportError(.cannotConnect, detail: "libcurl (\(soname)) lacks \(symbol): \(install)")
        default:
            throw HTTPTransportError(.cannotConnect, detail: "libcurl (\(soname)) could not be initialized (curl_global_init failed)")
        }
    }
}
#endif

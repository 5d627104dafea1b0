#if canImport(CLibCurl)
import CLibCurl
import Foundation

/// One request on its libcurl easy handle: the options set from the ``HTTPRequest``, the response
/// collected by libcurl's callbacks, and the continuation resumed once when it ends.
///
/// `@unchecked Sendable`: created on the caller's thread, then touched only on the driver thread
/// (``CurlDriver`` runs the callbacks and ends the transfer there); `cancellation` has its own lock.
final class CurlTransfer: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    private let curl: clibcurl_api
    let cancellation: CancellationLink<CurlTransfer>
    private var headerList: OpaquePointer?
    private var continuation: CheckedContinuation<HTTPResponse, Error>?
    private let maximumResponseSize: Int
    private var response = CurlResponseParts()
    private var tooLarge = false
    private var headerTooLarge = false

    /// Prepares `request`; throws ``HTTPTransportError/Kind/cannotConnect`` for a request libcurl
    /// would not send as asked (a header with a line break, an option it refuses).
    init(_ request: HTTPRequest, timeout: TimeInterval, maximumResponseSize: Int, cancellation: CancellationLink<CurlTransfer>,
         continuation: CheckedContinuation<HTTPResponse, Error>) throws {
        curl = try LibCurl.functions()
        guard let easy = curl.curl_easy_init() else {
            throw HTTPTransportError(.cannotConnect, detail: "libcurl could not create a request")
        }
        self.easy = easy
        self.cancellation = cancellation
        self.maximumResponseSize = maximumResponseSize
        try configure(request, timeout: timeout)
        guard cancellation.register(self) else {
            throw HTTPTransportError(.cancelled, detail: "the request was cancelled")
        }
        self.continuation = continuation
    }

    deinit {
        curl.curl_easy_cleanup(easy)
        curl.curl_slist_free_all(headerList)
    }

    /// Ends the call with what libcurl reported.
    func finish(_ result: clibcurl_code) {
        if headerTooLarge {
            return resume(throwing: HTTPTransportError(.responseTooLarge, detail: "the response's header has more than "
                + "\(CurlResponseParts.maximumFieldCount) fields or \(CurlResponseParts.maximumHeaderBytes) bytes"))
        }
        if tooLarge || result == CLIBCURLE_FILESIZE_EXCEEDED {
            return resume(throwing: HTTPTransportError(.responseTooLarge, detail: "the response body exceeds \(maximumResponseSize) bytes"))
        }
        if result == CLIBCURLE_OUT_OF_MEMORY, response.hasStatusLine {
            // libcurl refuses a header line over its own limit (100 KiB) this way, before the
            // header callback sees it.
            return resume(throwing: HTTPTransportError(.responseTooLarge, detail: "a header line of the response is larger than libcurl takes (100 KiB)"))
        }
        guard result == CLIBCURLE_OK else {
            return resume(throwing: HTTPTransportError(curl: result))
        }
        var status = 0
        clibcurl_getinfo_long(easy, CLIBCURLINFO_RESPONSE_CODE, &status)
        guard status > 0 else {
            return resume(throwing: HTTPTransportError(.connectionLost, detail: "no HTTP response"))
        }
        let parts = response
        continuation?.resume(returning: HTTPResponse(status: status, headers: parts.headers, body: parts.body))
        continuation = nil
    }

    /// Ends the call as cancelled.
    func finishCancelled() {
        resume(throwing: HTTPTransportError(.cancelled, detail: "the request was cancelled"))
    }

    private func resume(throwing error: HTTPTransportError) {
        continuation?.resume(throwing: error)
        continuation = nil
    }

    /// `timeout` in the whole milliseconds libcurl takes: at least 1 (0 would mean none), at most
    /// `Int32.max` (about 24 days), which a timeout past it, infinite or not a number, also gets.
    static func milliseconds(_ timeout: TimeInterval) -> Int {
        let milliseconds = (timeout * 1000).rounded(.down)
        guard !milliseconds.isNaN, milliseconds < Double(Int32.max) else { return Int(Int32.max) }
        return max(1, Int(max(milliseconds, 0)))
    }

    private func configure(_ request: HTTPRequest, timeout: TimeInterval) throws {
        let milliseconds = Self.milliseconds(timeout)
        try set(CLIBCURLOPT_URL, request.url.absoluteString)
        try set(CLIBCURLOPT_PROTOCOLS_STR, "http,https")
        try set(CLIBCURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CLIBCURLOPT_NOSIGNAL, 1)
        try set(CLIBCURLOPT_TIMEOUT_MS, milliseconds)
        try set(CLIBCURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        try set(CLIBCURLOPT_SSL_VERIFYPEER, 1)
        try set(CLIBCURLOPT_SSL_VERIFYHOST, 2)
        // Redirects are followed by CurlTransport, hop by hop, each held to the request's rule.
        try set(CLIBCURLOPT_FOLLOWLOCATION, 0)
        // Every encoding libcurl can decode; the size cap applies to the decoded body.
        try set(CLIBCURLOPT_ACCEPT_ENCODING, "")
        try check(clibcurl_setopt_offset(easy, CLIBCURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximumResponseSize)))
        try configureMethod(request)
        try configureHeaders(request)
        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(clibcurl_setopt_write_function(easy, curlWriteBody))
        try check(clibcurl_setopt_pointer(easy, CLIBCURLOPT_WRITEDATA, me))
        try check(clibcurl_setopt_header_function(easy, curlWriteHeader))
        try check(clibcurl_setopt_pointer(easy, CLIBCURLOPT_HEADERDATA, me))
    }

    /// True for a byte of an HTTP token (RFC 9110 §5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    private func configureMethod(_ request: HTTPRequest) throws {
        let method = request.method
        // A method is a token (RFC 9110 §9.1): anything else would be written into the request line as is.
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenByte) else {
            throw HTTPTransportError(.cannotConnect, detail: "the request method is not an HTTP token")
        }
        // Method names are case-sensitive (RFC 9110 §9.1), so they are compared byte for byte.
        let isPost = Exact.equal(method, "POST")
        if request.body == nil, Exact.equal(method, "GET") {
            return try set(CLIBCURLOPT_HTTPGET, 1)
        }
        if request.body == nil, Exact.equal(method, "HEAD") {
            return try set(CLIBCURLOPT_NOBODY, 1)
        }
        if !isPost { try set(CLIBCURLOPT_CUSTOMREQUEST, method) }
        if let body = request.body {
            try check(clibcurl_setopt_offset(easy, CLIBCURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS: libcurl keeps its own copy, for as long as the handle lives.
            if body.isEmpty {
                try set(CLIBCURLOPT_COPYPOSTFIELDS, "")
            } else {
                try check(body.withUnsafeBytes { clibcurl_setopt_pointer(easy, CLIBCURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) })
            }
            // A request with a body never rides a kept-alive connection (see the type's documentation).
            try set(CLIBCURLOPT_FRESH_CONNECT, 1)
            try set(CLIBCURLOPT_FORBID_REUSE, 1)
        } else if isPost {
            try set(CLIBCURLOPT_POST, 1)
            try check(clibcurl_setopt_offset(easy, CLIBCURLOPT_POSTFIELDSIZE_LARGE, 0))
        }
    }

    private func configureHeaders(_ request: HTTPRequest) throws {
        var hasExpect = false, hasUserAgent = false, hasConnection = false
        for (name, value) in request.headers {
            // A line break in a field would let its value write header fields (or a request) of its own.
            guard !Self.breaksLine(name), !Self.breaksLine(value) else {
                throw HTTPTransportError(.cannotConnect, detail: "a header field contains a line break")
            }
            hasExpect = hasExpect || ASCII.equalIgnoringCase(name, "Expect")
            hasUserAgent = hasUserAgent || ASCII.equalIgnoringCase(name, "User-Agent")
            hasConnection = hasConnection || ASCII.equalIgnoringCase(name, "Connection")
            try appendHeader("\(name): \(value)")
        }
        // No `Expect: 100-continue` round trip for larger bodies.
        if !hasExpect { try appendHeader("Expect:") }
        if !hasUserAgent { try appendHeader("User-Agent: SessionService") }
        if request.body != nil, !hasConnection { try appendHeader("Connection: close") }
        try check(clibcurl_setopt_headers(easy, headerList))
    }

    /// True when `text` holds a CR, an LF or a NUL. (Bytes, not Characters: "\r\n" is one
    /// Character, equal to neither "\r" nor "\n".)
    private static func breaksLine(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }

    private func appendHeader(_ line: String) throws {
        guard let extended = curl.curl_slist_append(headerList, line) else {
            throw HTTPTransportError(.cannotConnect, detail: "libcurl could not take the header fields")
        }
        headerList = extended
    }

    private func set(_ option: clibcurl_option, _ value: Int) throws {
        try check(clibcurl_setopt_long(easy, option, value))
    }

    private func set(_ option: clibcurl_option, _ value: String) throws {
        // libcurl copies string options (CLIBCURLOPT_URL and the rest) when they are set.
        try check(clibcurl_setopt_string(easy, option, value))
    }

    private func check(_ code: clibcurl_code) throws {
        guard code == CLIBCURLE_OK else {
            throw HTTPTransportError(.cannotConnect, detail: "libcurl refused an option of the request (curl \(code))")
        }
    }

    /// Takes a chunk of the body; false (which makes libcurl stop) once the body is over the cap.
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard response.body.count + bytes.count <= maximumResponseSize else {
            tooLarge = true
            response.body = Data()
            return false
        }
        response.body.append(contentsOf: bytes)
        return true
    }

    /// Takes one header line (status lines included); false (which makes libcurl stop) once the
    /// response's header is over its bounds.
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard response.take(headerLine: bytes) else {
            headerTooLarge = true
            return false
        }
        return true
    }
}

/// libcurl's write callback: the body, chunk by chunk. Returning less than it was given aborts the transfer.
private let curlWriteBody: curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// libcurl's header callback: one whole header line per call. Returning less than it was given aborts the transfer.
private let curlWriteHeader: curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
#endif

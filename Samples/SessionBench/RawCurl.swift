#if canImport(CLibCurl)
import CLibCurl
import Foundation

/// The floor of the core's requests: the same libcurl the core's transport drives, with no
/// client around it — one easy handle on one multi handle, reused so that the connection stays
/// alive, driven on the calling thread (no thread handoff at all), the body collected and the
/// status checked.
final class RawCurl {
    private let curl: clibcurl_api
    private let multi: UnsafeMutableRawPointer
    private let easy: UnsafeMutableRawPointer
    private var headers: OpaquePointer?
    private let body = Body()

    /// The bytes of one response body.
    private final class Body {
        var bytes = Data()
    }

    /// A GET of `url` with `Authorization: Bearer` `bearer`, ready to send again and again.
    init(get url: URL, bearer: String) throws {
        guard clibcurl().pointee.status == CLIBCURL_LOADED.rawValue else { throw BenchFailure("raw libcurl: libcurl.so.4 cannot be loaded") }
        curl = clibcurl().pointee
        guard let multi = curl.curl_multi_init(), let easy = curl.curl_easy_init() else { throw BenchFailure("raw libcurl: no handle") }
        self.multi = multi
        self.easy = easy
        headers = curl.curl_slist_append(nil, "Authorization: Bearer \(bearer)")
        headers = curl.curl_slist_append(headers, "Accept: application/json")
        clibcurl_setopt_string(easy, CLIBCURLOPT_URL, url.absoluteString)
        clibcurl_setopt_headers(easy, headers)
        clibcurl_setopt_long(easy, CLIBCURLOPT_NOSIGNAL, 1)
        clibcurl_setopt_write_function(easy) { buffer, size, count, box in
            guard let buffer, let box else { return 0 }
            Unmanaged<Body>.fromOpaque(box).takeUnretainedValue().bytes.append(UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: size * count)
            return size * count
        }
        clibcurl_setopt_pointer(easy, CLIBCURLOPT_WRITEDATA, Unmanaged.passUnretained(body).toOpaque())
    }

    deinit {
        curl.curl_easy_cleanup(easy)
        curl.curl_slist_free_all(headers)
    }

    /// Sends the request once and waits for the whole response on this thread.
    /// - Throws: unless it ends with status 200 and a body.
    func send() throws {
        body.bytes.removeAll(keepingCapacity: true)
        guard curl.curl_multi_add_handle(multi, easy) == CLIBCURLM_OK else { throw BenchFailure("raw libcurl: cannot add the handle") }
        defer { _ = curl.curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        while running > 0 {
            guard curl.curl_multi_perform(multi, &running) == CLIBCURLM_OK else { throw BenchFailure("raw libcurl: perform failed") }
            if running > 0 { _ = curl.curl_multi_poll(multi, nil, 0, 1_000, nil) }
        }
        var queued: Int32 = 0
        guard let message = curl.curl_multi_info_read(multi, &queued), clibcurl_message_fields(message).pointee.data.result == CLIBCURLE_OK else {
            throw BenchFailure("raw libcurl: the transfer failed")
        }
        var status = 0
        clibcurl_getinfo_long(easy, CLIBCURLINFO_RESPONSE_CODE, &status)
        guard status == 200, !body.bytes.isEmpty else { throw BenchFailure("raw libcurl: status \(status)") }
    }

    /// Sends the request once on `driver`, a serial queue, while the calling task waits for it.
    func send(on driver: DispatchQueue) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            driver.async { [self] in continuation.resume(with: Result { try send() }) }
        }
    }
}

// The lock is the serial queue: a handle is only ever used on the queue handed to `send(on:)`,
// or by `send()` on one thread, one request at a time.
extension RawCurl: @unchecked Sendable {}
#endif

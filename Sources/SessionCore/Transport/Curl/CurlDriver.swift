#if canImport(CLibCurl)
import CLibCurl
import Foundation

/// The process's one libcurl multi handle and the thread that drives it. Every transfer of every
/// ``CurlTransport`` runs here, so kept-alive connections are shared between them. Other threads
/// only post starts and cancellations to the inbox and wake the thread; libcurl's multi and easy
/// handles are touched on the driver thread alone (`curl_multi_wakeup` is the one call libcurl
/// allows from any thread).
///
/// The thread sleeps in one place, `curl_multi_poll`, idle or not, so a post wakes it with one
/// call (a semaphore beside it cost a second wake-up, and a spurious turn of the loop, per request).
///
/// `@unchecked Sendable`: `multi` is used only on the driver thread (but for `curl_multi_wakeup`),
/// and the inbox is behind its `Locked`.
final class CurlDriver: @unchecked Sendable {
    private enum Event {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
    }

    private let curl: clibcurl_api
    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked<[Event]>([])

    private static let instance = Result { try CurlDriver() }

    /// The process's driver, started on first use; throws when libcurl cannot be loaded (see
    /// ``LibCurl/functions()``).
    static func shared() throws -> CurlDriver {
        try instance.get()
    }

    private init() throws {
        curl = try LibCurl.functions()
        guard let multi = curl.curl_multi_init() else {
            throw HTTPTransportError(.cannotConnect, detail: "libcurl could not create its multi handle")
        }
        self.multi = multi
        // At most six connections to one host, as browsers and URLSession keep: a thousand
        // concurrent calls queue here instead of opening a thousand sockets to one server.
        clibcurl_multi_setopt_long(multi, CLIBCURLMOPT_MAX_HOST_CONNECTIONS, 6)
        let thread = Thread { [self] in run() }
        thread.name = "SessionService.curl"
        thread.start()
    }

    /// Starts `transfer`; its continuation is resumed when it ends.
    func start(_ transfer: CurlTransfer) { post(.start(transfer)) }

    /// Ends `transfer` as cancelled, unless it has ended already.
    func cancel(_ transfer: CurlTransfer) { post(.cancel(transfer)) }

    private func post(_ event: Event) {
        inbox.withLock { $0.append(event) }
        _ = curl.curl_multi_wakeup(multi)
    }

    /// The driver thread: takes posted events, lets libcurl work, ends finished transfers, and
    /// waits for sockets (or, with nothing to do, for the next event).
    private func run() {
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            for event in inbox.withLock({ events in defer { events = [] }; return events }) {
                switch event {
                case .start(let transfer):
                    if transfer.cancellation.isCancelled {
                        transfer.finishCancelled()
                    } else if curl.curl_multi_add_handle(multi, transfer.easy) == CLIBCURLM_OK {
                        running[transfer.easy] = transfer
                    } else {
                        transfer.finish(CLIBCURLE_FAILED_INIT)
                    }
                case .cancel(let transfer):
                    guard running.removeValue(forKey: transfer.easy) != nil else { continue }
                    _ = curl.curl_multi_remove_handle(multi, transfer.easy)
                    transfer.finishCancelled()
                }
            }
            if running.isEmpty {
                // Nothing to drive: sleep until a post's wake-up (the timeout only bounds the nap).
                _ = curl.curl_multi_poll(multi, nil, 0, 60_000, nil)
                continue
            }
            var active: Int32 = 0
            _ = curl.curl_multi_perform(multi, &active)
            var queued: Int32 = 0
            while let info = curl.curl_multi_info_read(multi, &queued) {
                let message = clibcurl_message_fields(info).pointee
                guard message.msg == CLIBCURLMSG_DONE, let easy = message.easy_handle else { continue }
                _ = curl.curl_multi_remove_handle(multi, easy)
                running.removeValue(forKey: easy)?.finish(message.data.result)
            }
            if !running.isEmpty {
                // libcurl shortens the wait to its own next timer; a posted event wakes it early.
                _ = curl.curl_multi_poll(multi, nil, 0, 1000, nil)
            }
        }
    }
}
#endif

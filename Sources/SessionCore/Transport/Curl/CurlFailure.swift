#if canImport(CLibCurl)
import CLibCurl

extension HTTPTransportError {
    /// The transport error for a transfer libcurl ended with `code`: the cause in words, with
    /// libcurl's code for searching. Failures before the request was written (name resolution,
    /// connection, TLS handshake and certificate checks) are ``Kind/cannotConnect``.
    init(curl code: clibcurl_code) {
        let number = " (curl \(code))"
        switch code {
        case CLIBCURLE_COULDNT_CONNECT:
            self.init(.cannotConnect, detail: "the connection was refused: nothing listens on that port, or a firewall said no" + number)
        case CLIBCURLE_COULDNT_RESOLVE_HOST, CLIBCURLE_COULDNT_RESOLVE_PROXY:
            self.init(.cannotConnect, detail: "the host name could not be resolved" + number)
        case CLIBCURLE_UNSUPPORTED_PROTOCOL, CLIBCURLE_URL_MALFORMAT:
            self.init(.cannotConnect, detail: "the URL cannot be requested (only http and https are)" + number)
        case CLIBCURLE_SSL_CONNECT_ERROR:
            self.init(.cannotConnect, detail: "the TLS handshake failed" + number)
        case CLIBCURLE_PEER_FAILED_VERIFICATION, CLIBCURLE_SSL_CACERT_BADFILE, CLIBCURLE_SSL_ISSUER_ERROR, CLIBCURLE_SSL_PINNEDPUBKEYNOTMATCH:
            self.init(.cannotConnect, detail: "the server's TLS certificate is not trusted" + number)
        case CLIBCURLE_OPERATION_TIMEDOUT:
            self.init(.timedOut, detail: "no complete answer came in time" + number)
        case CLIBCURLE_ABORTED_BY_CALLBACK:
            self.init(.cancelled, detail: "the request was cancelled")
        case CLIBCURLE_GOT_NOTHING, CLIBCURLE_RECV_ERROR, CLIBCURLE_SEND_ERROR, CLIBCURLE_PARTIAL_FILE:
            self.init(.connectionLost, detail: "the connection was closed before the answer was complete" + number)
        case CLIBCURLE_WEIRD_SERVER_REPLY, CLIBCURLE_HTTP2, CLIBCURLE_HTTP2_STREAM, CLIBCURLE_BAD_CONTENT_ENCODING:
            self.init(.connectionLost, detail: "the server's answer is not valid HTTP" + number)
        case CLIBCURLE_TOO_MANY_REDIRECTS:
            self.init(.connectionLost, detail: "the server redirected more than 10 times" + number)
        default:
            self.init(.connectionLost, detail: "the connection failed" + number)
        }
    }
}
#endif

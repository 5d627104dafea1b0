#if canImport(CLibCurl)
import CLibCurl

extension HTTPTransportError {
    /// The transport error for a transfer libcurl ended with `code`: the cause in words, with
    /// libcurl's code for searching. Failures before the request was written (name resolution,
    /// connection, TLS handshake and certificate checks) are ``Kind/cannotConnect``.
    init(curl code: CURLcode) {
        let number = " (curl \(code.rawValue))"
        switch code {
        case CURLE_COULDNT_CONNECT:
            self.init(.cannotConnect, detail: "the connection was refused: nothing listens on that port, or a firewall said no" + number)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self.init(.cannotConnect, detail: "the host name could not be resolved" + number)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self.init(.cannotConnect, detail: "the URL cannot be requested (only http and https are)" + number)
        case CURLE_SSL_CONNECT_ERROR:
            self.init(.cannotConnect, detail: "the TLS handshake failed" + number)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            self.init(.cannotConnect, detail: "the server's TLS certificate is not trusted" + number)
        case CURLE_OPERATION_TIMEDOUT:
            self.init(.timedOut, detail: "no complete answer came in time" + number)
        case CURLE_ABORTED_BY_CALLBACK:
            self.init(.cancelled, detail: "the request was cancelled")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            self.init(.connectionLost, detail: "the connection was closed before the answer was complete" + number)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING:
            self.init(.connectionLost, detail: "the server's answer is not valid HTTP" + number)
        case CURLE_TOO_MANY_REDIRECTS:
            self.init(.connectionLost, detail: "the server redirected more than 10 times" + number)
        default:
            self.init(.connectionLost, detail: "the connection failed" + number)
        }
    }
}
#endif

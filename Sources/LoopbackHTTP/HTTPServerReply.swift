/// What the handler wants done with a request.
public enum HTTPServerReply: Sendable {
    /// Send this response.
    case respond(HTTPServerResponse)
    /// Close the connection without answering (for fault injection).
    case dropConnection
    /// Send this response, close the connection, then run `afterSending` on the connection's
    /// thread: for work that must not race with the answer, such as stopping the server.
    case respondThenClose(HTTPServerResponse, afterSending: @Sendable () -> Void)
}

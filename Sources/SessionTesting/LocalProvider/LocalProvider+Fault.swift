import Foundation
import SessionCore

extension LocalProvider {
    /// A failure injected at an endpoint.
    public enum Fault: Sendable, Equatable {
        /// Waits this many seconds, then answers normally.
        case delay(TimeInterval)
        /// Answers with this status and body (JSON unless `contentType` says otherwise), and any
        /// further `headers` (a `WWW-Authenticate` challenge, say).
        case status(Int, body: String = "", contentType: String = "application/json", headers: [String: String] = [:])
        /// Answers 200 with a body that is not valid JSON.
        case malformedBody
        /// Closes the connection without answering.
        case dropConnection
    }
}

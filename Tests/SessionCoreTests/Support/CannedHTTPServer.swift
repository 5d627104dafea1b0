import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 for exercising URLSessionTransport over a real socket: it
/// answers every request on its ephemeral port with a response chosen by the request path, or
/// holds the connection open without answering when the response is nil.
///
/// `@unchecked Sendable`: `listener` and `responses` are set in `init` and never change; the
/// accept loop runs on its own thread and `stop()` only closes the descriptor.
final class CannedHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let responses: [String: Data?]
    private let held = NSLock()
    private var heldConnections: [Int32] = []

    init(responses: [String: Data?]) throws {
        self.responses = responses
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        held.withLock { heldConnections.forEach { close($0) }; heldConnections.removeAll() }
    }

    static func response(status: Int, headers: [String: String] = [:], body: Data = Data()) -> Data {
        var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Data((head + "\r\n").utf8) + body
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            var request = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.contains(Data("\r\n\r\n".utf8)) {
                let count = read(connection, &buffer, buffer.count)
                if count <= 0 { break }
                request.append(contentsOf: buffer[0..<count])
            }
            let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
            let path = line.count > 1 ? String(line[1]) : "/"
            let answer: Data? = responses.index(forKey: path).map { responses[$0].value } ?? CannedHTTPServer.response(status: 404)
            guard let answer else {
                held.withLock { heldConnections.append(connection) }
                continue
            }
            answer.withUnsafeBytes { _ = write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare HTTP/1.1 server on 127.0.0.1 that behaves like a busy real one: it keeps a connection
/// open after answering even when the client asked to close it, and closes without answering when
/// a second request arrives on it. It records the method and body size of every request.
///
/// `@unchecked Sendable`: `received` and `descriptors` are read and written only while holding `lock`.
final class ReusingServer: @unchecked Sendable {
    struct Received: Equatable {
        let connection: Int
        let method: String
        let bodyLength: Int
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var received: [Received] = []
    private var descriptors: [Int32] = []

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    var requests: [Received] { lock.withLock { received } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.withLock { descriptors.forEach { shutdown($0, Int32(SHUT_RDWR)) } }
    }

    private func acceptLoop() {
        var number = 0
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            number += 1
            lock.withLock { descriptors.append(connection) }
            let index = number
            Thread { [self] in serve(connection, index) }.start()
        }
    }

    private func serve(_ connection: Int32, _ index: Int) {
        defer { close(connection) }
        var buffer = Data()
        var count = 0
        while let (method, bodyLength) = readRequest(connection, &buffer) {
            count += 1
            lock.withLock { received.append(Received(connection: index, method: method, bodyLength: bodyLength)) }
            guard count == 1 else { return }
            let answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(String(bodyLength).utf8.count)\r\n\r\n\(bodyLength)"
            _ = answer.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Reads one request; nil when the client closed. A body shorter than its Content-Length is
    /// waited for until the client closes.
    private func readRequest(_ connection: Int32, _ buffer: inout Data) -> (String, Int)? {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard receive(connection, into: &buffer) else { return nil }
        }
        guard let end = buffer.range(of: separator) else { return nil }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        buffer.removeSubrange(..<end.upperBound)
        let method = head.first.map { String($0.split(separator: " ").first ?? "") } ?? ""
        let declared = head.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        while buffer.count < declared {
            guard receive(connection, into: &buffer) else { break }
        }
        let body = min(declared, buffer.count)
        buffer.removeSubrange(..<(buffer.startIndex + body))
        return (method, body)
    }

    private func receive(_ connection: Int32, into buffer: inout Data) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = recv(connection, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }
}

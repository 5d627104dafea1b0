import Foundation
@testable import LoopbackHTTP
#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP client, so tests can send exactly the bytes they want.
final class RawClient {
    let descriptor: Int32
    /// Bytes received but not yet consumed by `readResponse` (responses may arrive together).
    private var pending = Data()

    init(port: UInt16, ipv6: Bool = false) throws {
        descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var (storage, length) = Socket.address(host: ipv6 ? .ipv6 : .ipv4, port: port)
        let connected = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) } }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        // A failure guard only: a server that never answers fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Set once ``reset()`` has closed the descriptor.
    private var closed = false

    deinit { if !closed { close(descriptor) } }

    func send(_ text: String) { send(Data(text.utf8)) }

    func send(_ data: Data) {
        data.withUnsafeBytes { _ = Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one response (head and Content-Length body); nil when the server closed first.
    func readResponse() -> (status: Int, headers: [String: String], body: String)? {
        var data = pending
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let range = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let status = Int(head[0].split(separator: " ")[1]) ?? 0
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while data.count - range.upperBound < length {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count <= 0 { return nil }
                    data.append(contentsOf: buffer[0..<count])
                }
                let body = String(decoding: data[range.upperBound..<(range.upperBound + length)], as: UTF8.self)
                pending = Data(data[(range.upperBound + length)...])
                return (status, headers, body)
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// True when the server has closed or reset the connection (not merely stayed silent).
    func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// True when the server has closed or reset the connection by now, without waiting.
    func isClosedByServerNow() -> Bool {
        // A connection the server answered (503, say) before closing it has bytes to read first.
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            return count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// Reads whatever has arrived (waiting for the first bytes); false when nothing came.
    func readSome() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return recv(descriptor, &buffer, buffer.count, 0) > 0
    }

    /// Closes with a reset (RST) instead of an orderly close, as a crashed client would.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RD))
        close(descriptor)
        closed = true
    }

    /// Sends `bytes` on `descriptor` at once; false when the connection is gone.
    static func sendNow(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
    }
}

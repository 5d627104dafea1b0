import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX socket calls the server needs, with errors as `POSIXError`.
enum Socket {
    /// A listening TCP socket on a loopback address, and the port it got.
    static func listen(host: LoopbackHTTPServer.Host, port: UInt16) throws -> (Int32, UInt16) {
        let family = host == .ipv4 ? AF_INET : AF_INET6
        #if canImport(Glibc)
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw currentError() }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var (storage, length) = address(host: host, port: port)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        // A deep backlog: a burst of connections waits to be accepted instead of having its
        // handshakes dropped (and retried a second later).
        #if canImport(Glibc)
        let listening = Glibc.listen(descriptor, SOMAXCONN)
        #else
        let listening = Darwin.listen(descriptor, SOMAXCONN)
        #endif
        guard bound == 0, listening == 0 else {
            let error = currentError()
            close(descriptor)
            throw error
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &actualLength) }
        }
        let boundPort = withUnsafeBytes(of: actual) { raw -> UInt16 in
            // sin_port and sin6_port sit at the same offset, right after the family.
            UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
        }
        return (descriptor, boundPort)
    }

    /// The socket address of `host:port`, ready for `bind` or `connect`.
    static func address(host: LoopbackHTTPServer.Host, port: UInt16) -> (sockaddr_storage, socklen_t) {
        var storage = sockaddr_storage()
        func store<Address>(_ address: Address) -> socklen_t {
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: address) { target.copyMemory(from: $0) } }
            return socklen_t(MemoryLayout<Address>.size)
        }
        switch host {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host.rawValue, &address.sin_addr)
            let length = store(address)
            return (storage, length)
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host.rawValue, &address.sin6_addr)
            let length = store(address)
            return (storage, length)
        }
    }

    /// Makes blocking reads and writes on `descriptor` give up after `seconds`.
    static func setTimeouts(_ descriptor: Int32, seconds: TimeInterval) {
        var timeout = timeval()
        timeout.tv_sec = .init(seconds.rounded(.down))
        timeout.tv_usec = .init((seconds - seconds.rounded(.down)) * 1_000_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var noSignal: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Up to 16 KiB from the peer; nil at end of stream, on error or after the idle timeout.
    static func receive(_ descriptor: Int32) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 { return Data(buffer[0..<count]) }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// Writes all of `data`; false when the peer is gone.
    static func sendAll(_ descriptor: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                let count = Glibc.send(descriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let count = Darwin.send(descriptor, base + offset, bytes.count - offset, 0)
                #endif
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    static func currentError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

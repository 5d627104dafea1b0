import Foundation

/// URL rules shared by configuration and discovery: which hosts count as loopback, which
/// endpoints may use plain HTTP, and how two URLs are compared for redirect matching.
package enum URLRules {
    /// True for `127.0.0.0/8`, `::1` and `localhost`: where an endpoint may use plain http.
    package static func isLoopback(host: String?) -> Bool {
        guard let host else { return false }
        return ASCII.equalIgnoringCase(host, "localhost") || isLoopbackIPLiteral(host: host)
    }

    /// True for an IP literal in `127.0.0.0/8` or `::1` (brackets allowed): what an http redirect
    /// URI must name (RFC 8252 §7.3, §8.3: not `localhost`, which a resolver may send elsewhere).
    package static func isLoopbackIPLiteral(host: String?) -> Bool {
        guard var host = host?.utf8[...] else { return false }
        while host.first == UInt8(ascii: "[") { host = host.dropFirst() }
        while host.last == UInt8(ascii: "]") { host = host.dropLast() }
        if host.elementsEqual("::1".utf8) { return true }
        // Four dot-separated decimal octets, the first 127: read byte by byte, since this runs
        // before every request that carries a token.
        var octets = 0, digits = 0, value = 0, first = 0
        for byte in host {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                if octets == 0 { first = digits == 3 ? value : 0 }
                octets += 1
                digits = 0
                value = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
                value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 256)
                guard value <= 255 else { return false }
            } else {
                return false
            }
        }
        return octets == 3 && digits > 0 && first == 127
    }

    /// True when `url` is https, or http on a loopback host.
    package static func isSecureEndpoint(_ url: URL) -> Bool {
        guard let scheme = url.scheme, let host = url.host else { return false }
        return ASCII.equalIgnoringCase(scheme, "https") || (ASCII.equalIgnoringCase(scheme, "http") && isLoopback(host: host))
    }

    /// True when `a` and `b` have one origin (RFC 6454): scheme and host compared without regard
    /// to case, and the same port once the scheme's default is filled in.
    package static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let first = URLComponents(url: a, resolvingAgainstBaseURL: false),
              let second = URLComponents(url: b, resolvingAgainstBaseURL: false),
              let firstScheme = first.scheme, let secondScheme = second.scheme,
              let firstHost = first.host, let secondHost = second.host else { return false }
        return ASCII.equalIgnoringCase(firstScheme, secondScheme) && ASCII.equalIgnoringCase(firstHost, secondHost)
            && effectivePort(first) == effectivePort(second)
    }

    /// `url`'s origin (RFC 6454) as text — scheme, host and effective port, scheme and host in
    /// lower case — for keeping something per server; nil without a scheme or host.
    package static func origin(_ url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme,
              let host = components.host else { return nil }
        return "\(scheme.lowercased())://\(host.lowercased()):\(effectivePort(components).map(String.init) ?? "")"
    }

    /// The port a URL addresses, with the scheme's default filled in.
    static func effectivePort(_ components: URLComponents) -> Int? {
        if let port = components.port { return port }
        switch components.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }

    /// True when `configured` is an http loopback URI without a port and `candidate` is the same
    /// URI with a port: the one redirect URI change RFC 8252 §7.3 allows.
    static func isLoopbackPortVariant(_ candidate: URL, of configured: URL) -> Bool {
        guard let configuredParts = URLComponents(url: configured, resolvingAgainstBaseURL: false),
              var candidateParts = URLComponents(url: candidate, resolvingAgainstBaseURL: false),
              configuredParts.scheme?.lowercased() == "http", isLoopbackIPLiteral(host: configuredParts.host),
              configuredParts.port == nil, candidateParts.port != nil else { return false }
        candidateParts.port = nil
        return Exact.equal(candidateParts.string, configuredParts.string)
    }
}

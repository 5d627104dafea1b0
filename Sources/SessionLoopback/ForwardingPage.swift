import Foundation
import LoopbackHTTP
import SessionCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTML file that sends the browser on to the authorization URL, so that the URL —
/// whose `state`, `nonce` and PKCE challenge let another local user finish the sign-in as
/// themselves (login CSRF) — never appears in a process's arguments, which every user can read
/// in `/proc/PID/cmdline`. Only the file's path is handed to the browser command.
///
/// The file is readable by its owner only (0600, in a fresh 0700 directory made with `mkdtemp`
/// under the temporary directory) and is removed with its directory by ``remove()``, which the
/// agent calls when the sign-in ends.
struct ForwardingPage {
    /// The file to open.
    let fileURL: URL
    private let directory: String

    /// Writes the page for `authorizationURL`.
    /// - Throws: `authorizationAgentFailed` when the file cannot be written.
    init(forwardingTo authorizationURL: URL) throws {
        var template = Array((NSTemporaryDirectory() + "/session-signin-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw Self.failure("cannot create a private directory for the sign-in page")
        }
        directory = String(cString: made)
        fileURL = URL(fileURLWithPath: directory).appendingPathComponent("sign-in.html")
        let descriptor = open(fileURL.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            rmdir(directory)
            throw Self.failure("cannot create the sign-in page")
        }
        let page = Data(Self.html(forwardingTo: authorizationURL).utf8)
        let written = page.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == page.count else {
            remove()
            throw Self.failure("cannot write the sign-in page")
        }
    }

    /// Deletes the page and its directory.
    func remove() {
        unlink(fileURL.path)
        rmdir(directory)
    }

    /// The page: an immediate refresh to the URL, and a link for a browser that does not follow it.
    static func html(forwardingTo url: URL) -> String {
        let target = HTMLText.escape(url.absoluteString)
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(target)"><title>Signing in</title></head>
            <body><p><a href="\(target)">Continue to sign in</a></p></body></html>
            """
    }

    private static func failure(_ why: String) -> SessionError {
        SessionError(.authorizationAgentFailed, process: .authentication, message: "\(why): \(String(cString: strerror(errno)))")
    }
}

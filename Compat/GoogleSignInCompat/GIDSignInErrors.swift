import Foundation
import SessionCore

/// The error domain of every `GIDSignIn` error.
public let kGIDSignInErrorDomain = "com.google.GIDSignIn"

/// Google Sign-In's error codes.
public enum GIDSignInErrorCode: Int, Sendable {
    /// Anything else; the `NSUnderlyingErrorKey` holds the SessionService error.
    case unknown = -1
    /// The token store failed.
    case keychain = -2
    /// Google Sign-In 4.x: nothing can show the sign-in page (here: neither an
    /// `authorizationAgent` nor an `authorizationURLHandler` is set). 5.0 removed it.
    case noSignInHandlersInstalled = -3
    /// There is no stored sign-in to restore.
    case hasNoAuthInKeychain = -4
    /// The user cancelled.
    case canceled = -5
    /// An enterprise-management error (never produced here).
    case EMM = -6
}

enum GIDSignInErrors {
    static func make(_ code: GIDSignInErrorCode, _ message: String, cause: SessionError? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let cause { info[NSUnderlyingErrorKey] = cause }
        return NSError(domain: kGIDSignInErrorDomain, code: code.rawValue, userInfo: info)
    }

    static func make(_ error: SessionError) -> NSError {
        let code: GIDSignInErrorCode = switch error.code {
        // GIDSignIn.m (6.0.0) reports a declined consent, `access_denied`, as a cancel.
        case .cancelled, .accessDenied: .canceled
        case .notAuthenticated: .hasNoAuthInKeychain
        case .storageFailed, .storageCorrupt: .keychain
        default: .unknown
        }
        return make(code, error.message, cause: error)
    }
}

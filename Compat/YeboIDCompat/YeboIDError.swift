import Foundation
import SessionCore

/// An error of YeboID for Swift: a snake_case `code` an app can switch on (<doc:MigratingFromYeboID> lists
/// them), and, when SessionService produced it, the `SessionError` behind it.
/// Neither ever holds a token.
public struct YeboIDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, e.g. `user_cancelled`, `offline`, `storage_failed`,
    /// `operation_in_progress`, `invalid_userinfo`, or the provider's OAuth error such as
    /// `access_denied`.
    public let code: String
    /// The SessionService error this one stands for, when there is one.
    public let underlying: SessionError?

    /// An error with `code`, as an app throws one (`YeboIDError("invalid_userinfo")`).
    public init(_ code: String) {
        self.code = code
        underlying = nil
    }

    init(_ error: SessionError) {
        code = Self.code(for: error)
        underlying = error
    }

    /// `code`, and the SessionService error's description when there is one.
    public var description: String {
        underlying.map { "YeboIDError(\(code)): \($0.description)" } ?? "YeboIDError(\(code))"
    }

    /// Two errors are equal when their codes are.
    public static func == (lhs: YeboIDError, rhs: YeboIDError) -> Bool { lhs.code == rhs.code }

    /// The YeboID code for a SessionService error: a few names of the README's, the provider's
    /// OAuth error when it sent one, else the SessionService code in snake_case.
    static func code(for error: SessionError) -> String {
        switch error.code {
        case .cancelled: return "user_cancelled"
        case .cannotConnect: return "offline"
        default: break
        }
        if let oauth = error.oauthError, error.code != .reauthenticationRequired { return oauth }
        return snakeCase(error.code.rawValue)
    }

    private static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

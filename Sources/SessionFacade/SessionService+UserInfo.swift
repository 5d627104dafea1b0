import SessionCore

/// `fetchUserInfo`: the provider's UserInfo for the session.
extension SessionService {
    /// Fetches the UserInfo, refreshing the access token first when needed (C8).
    /// Outcome: `didFetchUserInfo` or `didFetchUserInfoWithError`.
    public func fetchUserInfo(completion: (@Sendable (Result<UserInfo, SessionError>) -> Void)? = nil) {
        performOnClient(.userInfo, completion) { try await $0.userInfo() }
    }

    /// ``fetchUserInfo(completion:)``, awaited.
    /// - Throws: the request's `SessionError`.
    public func fetchUserInfo() async throws -> UserInfo {
        try await awaiting { fetchUserInfo(completion: $0) }
    }
}

extension Outcome where Value == UserInfo {
    /// `didFetchUserInfo` or `didFetchUserInfoWithError`.
    static var userInfo: Outcome {
        Outcome(.userInfo, success: { $0.didFetchUserInfo($1) }, failure: { $0.didFetchUserInfoWithError($1) })
    }
}

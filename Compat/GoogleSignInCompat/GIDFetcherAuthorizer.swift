import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionFacade

/// The part of GTMSessionFetcher's `GTMFetcherAuthorizationProtocol` an app calls itself, under
/// the names Swift's importer gives it: what ``GIDAuthentication/fetcherAuthorizer()`` returns.
/// Its selector-based `authorizeRequest(_:delegate:didFinish:)` is not here (there is no
/// Objective-C runtime to call a selector on Linux), nor is it GTMSessionFetcher's own protocol:
/// Google's REST clients cannot take it as their `authorizer` (<doc:DifferencesFromGoogleSignIn>).
public protocol GTMFetcherAuthorizationProtocol: NSObjectProtocol {
    /// Adds the authorization to `request`, then calls `handler` with nil, or with the error that
    /// kept it from being authorized.
    func authorizeRequest(_ request: NSMutableURLRequest?, completionHandler handler: @escaping (Error?) -> Void)
    /// Stops every authorization in progress: their handlers are still called, with an error.
    func stopAuthorization()
    /// Stops the authorization of `request` if it is in progress.
    func stopAuthorization(for request: URLRequest)
    /// True while `request` is being authorized.
    func isAuthorizingRequest(_ request: URLRequest) -> Bool
    /// True when `request` carries a Bearer authorization (what GTMAppAuth's authorizer checks;
    /// it does not tell whose token it is).
    func isAuthorizedRequest(_ request: URLRequest) -> Bool
    /// The signed-in user's email (the ID token's `email` claim), when known.
    var userEmail: String? { get }
    /// True while the user the authorizer was made for is signed in, with tokens to authorize with.
    var canAuthorize: Bool { get }
    /// Whether requests that are not https (nor http to a loopback address) are authorized too,
    /// sending the access token in the clear: for development only. Default false.
    var shouldAuthorizeAllRequests: Bool { get set }
}

/// Authorizes requests with the session's access token, refreshed first when it expires within
/// the leeway (the facade's rule C8), through `SessionService.authorize(_:completion:)`,
/// and only while the session is its user's: after that user signs out and another signs in, it
/// refuses instead of attaching the other user's token. Handlers are called on the sign-in's
/// callback queue. A request to an insecure URL is refused unless ``shouldAuthorizeAllRequests``,
/// as GTMAppAuth's authorizer refuses it.
///
/// `@unchecked Sendable`: the requests in progress and ``shouldAuthorizeAllRequests`` are behind
/// `state`'s lock; the rest is `let`.
final class GIDFetcherAuthorizer: NSObject, GTMFetcherAuthorizationProtocol, @unchecked Sendable {
    private struct State {
        var inProgress: [URLRequest] = []
        var authorizesAll = false
    }

    private let service: @Sendable () -> SessionService
    /// The user whose token it attaches (nil: the authentication named none, and any session's is).
    private let subject: String?
    private let email: @Sendable () -> String?
    private let userCanAuthorize: @Sendable () -> Bool
    private let state = Locked(State())

    init(service: @escaping @Sendable () -> SessionService, subject: String?, userEmail: @escaping @Sendable () -> String?,
         canAuthorize: @escaping @Sendable () -> Bool) {
        self.service = service
        self.subject = subject
        email = userEmail
        userCanAuthorize = canAuthorize
    }

    var userEmail: String? { email() }

    var canAuthorize: Bool { userCanAuthorize() }

    var shouldAuthorizeAllRequests: Bool {
        get { state.withLock { $0.authorizesAll } }
        set { state.withLock { $0.authorizesAll = newValue } }
    }

    func authorizeRequest(_ request: NSMutableURLRequest?, completionHandler handler: @escaping (Error?) -> Void) {
        let service = service()
        let callback = CallbackQueueBound(handler)
        guard let request else {
            return service.callbackQueue.async { callback.value(Self.error("there is no request to authorize")) }
        }
        let original = request as URLRequest
        guard shouldAuthorizeAllRequests || original.url.map(URLRules.isSecureEndpoint) == true else {
            return service.callbackQueue.async { callback.value(Self.error("the request is not https: its access token would travel in the clear")) }
        }
        let mutable = UncheckedRequest(request)
        state.withLock { $0.inProgress.append(original) }
        service.authorize(original, subject: subject) { [self] result in
            let wasInProgress = state.withLock { state in
                guard let index = state.inProgress.firstIndex(of: original) else { return false }
                state.inProgress.remove(at: index)
                return true
            }
            switch result {
            case _ where !wasInProgress:
                callback.value(Self.error("the authorization was stopped"))
            case .success(let authorized):
                mutable.request.setValue(authorized.value(forHTTPHeaderField: "Authorization"), forHTTPHeaderField: "Authorization")
                callback.value(nil)
            case .failure(let error):
                callback.value(GIDSignInErrors.make(error))
            }
        }
    }

    func stopAuthorization() {
        state.withLock { $0.inProgress.removeAll() }
    }

    func stopAuthorization(for request: URLRequest) {
        state.withLock { state in state.inProgress.removeAll { $0 == request } }
    }

    func isAuthorizingRequest(_ request: URLRequest) -> Bool {
        state.withLock { $0.inProgress.contains(request) }
    }

    func isAuthorizedRequest(_ request: URLRequest) -> Bool {
        guard let value = request.value(forHTTPHeaderField: "Authorization") else { return false }
        return value.hasPrefix("Bearer ")
    }

    private static func error(_ message: String) -> NSError {
        GIDSignInErrors.make(.unknown, "fetcherAuthorizer: \(message)")
    }
}

/// The app's mutable request, handed to the callback queue where its header is set.
/// `@unchecked Sendable`: it is written once, on the callback queue, before the app's handler
/// runs there; the app does not touch it meanwhile (it is waiting for that handler).
private struct UncheckedRequest: @unchecked Sendable {
    let request: NSMutableURLRequest
    init(_ request: NSMutableURLRequest) { self.request = request }
}

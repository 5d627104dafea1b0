// The AuthenticationServices declarations SessionCore uses, transcribed from Apple's
// documentation for the Apple type-check (Tests/AppleTypeCheck/run.sh). Declarations only.
// The presentation anchor is UIKit's window in the iOS flavour and AppKit's in the macOS one,
// as on those platforms.
import Foundation
#if canImport(UIKit)
import UIKit

/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor
public typealias ASPresentationAnchor = UIWindow
#else
import AppKit

/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor
public typealias ASPresentationAnchor = NSWindow
#endif

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerrordomain
public let ASWebAuthenticationSessionErrorDomain: String = "declaration only"

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding/presentationanchor(for:)
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession
open class ASWebAuthenticationSession: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/completionhandler
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback
    @available(iOS 17.4, macOS 14.4, *)
    public class Callback {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/customscheme(_:)
        public class func customScheme(_ customScheme: String) -> Self { fatalError("declaration only") }
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/https(host:path:)
        public class func https(host: String, path: String) -> Self { fatalError("declaration only") }
    }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callbackurlscheme:completionhandler:)-7fpox
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) { fatalError("declaration only") }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callback:completionhandler:)-6nut7
    @available(iOS 17.4, macOS 14.4, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) { fatalError("declaration only") }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/presentationcontextprovider
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/prefersephemeralwebbrowsersession
    open var prefersEphemeralWebBrowserSession: Bool = false

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/start()
    open func start() -> Bool { fatalError("declaration only") }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/cancel()
    open func cancel() { fatalError("declaration only") }
}

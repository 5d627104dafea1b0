// The AppKit declarations SessionCore uses, transcribed from Apple's documentation for the
// Apple type-check's macOS flavour (Tests/AppleTypeCheck/run.sh). Declarations only.
import Foundation

/// https://developer.apple.com/documentation/appkit/nsresponder
@MainActor open class NSResponder: NSObject {}

/// https://developer.apple.com/documentation/appkit/nswindow
@MainActor open class NSWindow: NSResponder {}

/// https://developer.apple.com/documentation/appkit/nsapplication
@MainActor open class NSApplication: NSResponder {
    /// https://developer.apple.com/documentation/appkit/nsapplication/shared
    open class var shared: NSApplication { fatalError("declaration only") }
    /// https://developer.apple.com/documentation/appkit/nsapplication/keywindow
    open var keyWindow: NSWindow? { fatalError("declaration only") }
    /// https://developer.apple.com/documentation/appkit/nsapplication/mainwindow
    open var mainWindow: NSWindow? { fatalError("declaration only") }
}

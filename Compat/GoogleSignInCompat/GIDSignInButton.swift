import Foundation

/// The sign-in button's layout, with Google Sign-In's raw values.
public enum GIDSignInButtonStyle: Int, Sendable, CaseIterable {
    /// The logo and "Sign in".
    case standard = 0
    /// The logo and a longer "Sign in with Google".
    case wide = 1
    /// The logo only.
    case iconOnly = 2
}

/// The sign-in button's colours, with Google Sign-In's raw values.
public enum GIDSignInButtonColorScheme: Int, Sendable, CaseIterable {
    /// Light content on a dark button.
    case dark = 0
    /// Dark content on a light button.
    case light = 1
}

#if canImport(UIKit)
import UIKit

/// Google Sign-In's button (public API since 4.2.0): a `UIControl` with its `style` and
/// `colorScheme`, defaulting as Google's does (`.standard`, `.light`). It draws none of Google's
/// artwork: put your own content in it, and add the target action that calls `signIn`, as apps
/// of 5.x and later do (MIGRATION says so).
///
/// Never run: type-checked in CI against declarations transcribed from Apple's documentation.
@MainActor
open class GIDSignInButton: UIControl {
    /// The layout.
    open var style: GIDSignInButtonStyle = .standard
    /// The colours.
    open var colorScheme: GIDSignInButtonColorScheme = .light
}
#endif

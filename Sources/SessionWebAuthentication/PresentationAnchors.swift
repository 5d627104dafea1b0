#if canImport(AuthenticationServices) && (canImport(UIKit) || canImport(AppKit))
import AuthenticationServices
import SessionCore
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

/// Finds the window a ``WebAuthenticationAgent`` shows its page from when the app names none.
///
/// Never run: type-checked in CI against declarations transcribed from Apple's documentation.
public enum PresentationAnchors {
    /// The app's key window: on iOS and visionOS the key window of its foreground-active scene
    /// (or of any scene), on macOS the key window (or the main window). Nil when there is none.
    @MainActor
    public static func keyWindow() -> ASPresentationAnchor? {
        #if canImport(UIKit)
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        let active = scenes.filter { $0.activationState == .foregroundActive }
        return (active + scenes).lazy.flatMap(\.windows).first { $0.isKeyWindow }
            ?? (active + scenes).lazy.flatMap(\.windows).first
        #else
        return NSApplication.shared.keyWindow ?? NSApplication.shared.mainWindow
        #endif
    }
}
#endif

/// When the keychain item that holds a session can be read, the `kSecAttrAccessible` classes
/// of Apple's Security framework.
///
/// A refresh saves the rotated refresh token before anyone sees it and ends the session when it
/// cannot, so a class that locks the item while the app runs in the background ends sessions
/// that refresh there; the default, ``afterFirstUnlockThisDeviceOnly``, does not.
public enum KeychainAccessibility: String, Sendable, CaseIterable {
    /// `kSecAttrAccessibleWhenUnlocked`: while the device is unlocked; moves to a new device
    /// with an encrypted backup.
    case whenUnlocked
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: while the device is unlocked; never
    /// leaves the device.
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleAfterFirstUnlock`: from the first unlock after a restart; moves to a
    /// new device with an encrypted backup.
    case afterFirstUnlock
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: from the first unlock after a
    /// restart; never leaves the device. The default.
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: while unlocked, only when a passcode
    /// is set; the item is deleted when the passcode is removed.
    case whenPasscodeSetThisDeviceOnly
}

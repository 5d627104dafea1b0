// The Security declarations SessionCore uses, transcribed from Apple's documentation for the
// Apple type-check (Tests/AppleTypeCheck/run.sh). Declarations only: the bodies never run.
//
// Two stand-ins, because Linux has no CoreFoundation types to name: a CF type is its toll-free
// bridged Foundation class (CFString is NSString, CFData NSData, CFDictionary NSDictionary), so
// `data as CFData` and `dictionary as CFDictionary` check as they do on Apple platforms; and the
// C constants Swift imports as `let` are read-only computed properties here, since NSString is
// not Sendable on Linux and a global `let` of it would be refused in Swift 6 mode.
import Foundation

/// https://developer.apple.com/documentation/corefoundation/cfstring
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdata
public typealias CFData = NSData
/// https://developer.apple.com/documentation/corefoundation/cfdictionary
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/corefoundation/cftyperef
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cferror
public typealias CFError = NSError
/// https://developer.apple.com/documentation/corefoundation/cfallocator (a class of its own here:
/// Foundation has no bridged counterpart)
public final class CFAllocator {}
/// https://developer.apple.com/documentation/kernel/osstatus
public typealias OSStatus = Int32

/// https://developer.apple.com/documentation/security/errsecsuccess
public var errSecSuccess: OSStatus { 0 }

// MARK: Keychain items

/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/secitemdelete(_:)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { fatalError("declaration only") }

/// https://developer.apple.com/documentation/security/ksecclass
public var kSecClass: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword
public var kSecClassGenericPassword: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattrservice
public var kSecAttrService: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccount
public var kSecAttrAccount: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccessgroup
public var kSecAttrAccessGroup: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccessible
public var kSecAttrAccessible: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlocked
public var kSecAttrAccessibleWhenUnlocked: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlockedthisdeviceonly
public var kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlock
public var kSecAttrAccessibleAfterFirstUnlock: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenpasscodesetthisdeviceonly
public var kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecvaluedata
public var kSecValueData: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecreturndata
public var kSecReturnData: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecmatchlimit
public var kSecMatchLimit: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecmatchlimitone
public var kSecMatchLimitOne: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecmatchlimitall
public var kSecMatchLimitAll: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecreturnattributes
public var kSecReturnAttributes: CFString { fatalError("declaration only") }

// MARK: Keys

/// https://developer.apple.com/documentation/security/seckey
public final class SecKey {}

// MARK: Access control

/// https://developer.apple.com/documentation/security/secaccesscontrol
public final class SecAccessControl {}

/// https://developer.apple.com/documentation/security/secaccesscontrolcreateflags
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/security/secaccesscontrolcreateflags/privatekeyusage
    public static var privateKeyUsage: SecAccessControlCreateFlags { fatalError("declaration only") }
}

/// https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
public func SecAccessControlCreateWithFlags(_ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
                                            _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl? { fatalError("declaration only") }

/// https://developer.apple.com/documentation/security/seckeyalgorithm
public struct SecKeyAlgorithm: RawRepresentable, Hashable {
    /// https://developer.apple.com/documentation/security/seckeyalgorithm/rawvalue
    public var rawValue: CFString
    /// https://developer.apple.com/documentation/security/seckeyalgorithm/init(rawvalue:)
    public init(rawValue: CFString) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/security/seckeyalgorithm/rsasignaturemessagepkcs1v15sha256
    public static var rsaSignatureMessagePKCS1v15SHA256: SecKeyAlgorithm { fatalError("declaration only") }
}

/// https://developer.apple.com/documentation/security/ksecattrkeytype
public var kSecAttrKeyType: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattrkeytypersa
public var kSecAttrKeyTypeRSA: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattrkeyclass
public var kSecAttrKeyClass: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattrkeyclasspublic
public var kSecAttrKeyClassPublic: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattrkeyclassprivate
public var kSecAttrKeyClassPrivate: CFString { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/ksecattrkeysizeinbits
public var kSecAttrKeySizeInBits: CFString { fatalError("declaration only") }

/// https://developer.apple.com/documentation/security/seckeycreatewithdata(_:_:_:)
public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary,
                                 _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/seckeycreaterandomkey(_:_:)
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/seckeycopypublickey(_:)
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/seckeycopyexternalrepresentation(_:_:)
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/seckeycreatesignature(_:_:_:_:)
public func SecKeyCreateSignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? { fatalError("declaration only") }
/// https://developer.apple.com/documentation/security/seckeyverifysignature(_:_:_:_:_:)
public func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool { fatalError("declaration only") }

// MARK: Randomness

/// https://developer.apple.com/documentation/security/secrandomref
public typealias SecRandomRef = OpaquePointer
/// https://developer.apple.com/documentation/security/ksecrandomdefault
public var kSecRandomDefault: SecRandomRef? { nil }
/// https://developer.apple.com/documentation/security/secrandomcopybytes(_:_:_:)
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 { fatalError("declaration only") }

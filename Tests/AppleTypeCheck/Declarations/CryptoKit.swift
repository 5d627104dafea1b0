// The CryptoKit declarations SessionCore uses, transcribed from Apple's documentation for the
// Apple type-check (Tests/AppleTypeCheck/run.sh). Declarations only: the bodies never run.
import Foundation
import Security

/// https://developer.apple.com/documentation/cryptokit/sha256
public struct SHA256: Sendable {
    /// https://developer.apple.com/documentation/cryptokit/sha256digest
    public struct Digest: Sequence, Sendable {
        /// https://developer.apple.com/documentation/cryptokit/sha256digest (Sequence of UInt8)
        public func makeIterator() -> Array<UInt8>.Iterator { fatalError("declaration only") }
    }

    /// https://developer.apple.com/documentation/cryptokit/sha256/hash(data:)
    public static func hash<D: DataProtocol>(data: D) -> Digest { fatalError("declaration only") }
}

/// https://developer.apple.com/documentation/cryptokit/p256
public enum P256 {
    /// https://developer.apple.com/documentation/cryptokit/p256/signing
    public enum Signing {
        /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey
        public struct PublicKey: Sendable {
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey/init(rawrepresentation:)
            public init<D: ContiguousBytes>(rawRepresentation: D) throws { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey/rawrepresentation
            public var rawRepresentation: Data { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey/isvalidsignature(_:for:)
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool { fatalError("declaration only") }
        }

        /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey
        public struct PrivateKey: Sendable {
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/init(compactrepresentable:)
            public init(compactRepresentable: Bool = true) { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/init(derrepresentation:)
            public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8 { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/derrepresentation
            public var derRepresentation: Data { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/publickey
            public var publicKey: PublicKey { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/signature(for:)
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { fatalError("declaration only") }
        }

        /// https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature
        public struct ECDSASignature: Sendable {
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature/init(rawrepresentation:)
            public init<D: DataProtocol>(rawRepresentation: D) throws { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature/rawrepresentation
            public var rawRepresentation: Data { fatalError("declaration only") }
        }
    }
}

/// https://developer.apple.com/documentation/cryptokit/secureenclave
public enum SecureEnclave {
    /// https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable
    public static var isAvailable: Bool { fatalError("declaration only") }

    /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256
    public enum P256 {
        /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing
        public enum Signing {
            /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey
            public struct PrivateKey {
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:)
                /// (its authentication context, which has a default, is not transcribed)
                public init(compactRepresentable: Bool = true,
                            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil)!)
                    throws { fatalError("declaration only") }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(datarepresentation:authenticationcontext:)
                /// (its authentication context, which has a default, is not transcribed)
                public init<Bytes: ContiguousBytes>(dataRepresentation: Bytes) throws { fatalError("declaration only") }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/datarepresentation
                public var dataRepresentation: Data { fatalError("declaration only") }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/publickey
                public var publicKey: CryptoKit.P256.Signing.PublicKey { fatalError("declaration only") }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/signature(for:)
                public func signature<D: DataProtocol>(for data: D) throws -> CryptoKit.P256.Signing.ECDSASignature { fatalError("declaration only") }
            }
        }
    }
}

/// https://developer.apple.com/documentation/cryptokit/symmetrickey
public struct SymmetricKey: Sendable {
    /// https://developer.apple.com/documentation/cryptokit/symmetrickey/init(data:)
    public init<D: ContiguousBytes>(data: D) { fatalError("declaration only") }
}

/// https://developer.apple.com/documentation/cryptokit/aes
public enum AES {
    /// https://developer.apple.com/documentation/cryptokit/aes/gcm
    public enum GCM {
        /// https://developer.apple.com/documentation/cryptokit/aes/gcm/nonce
        public struct Nonce: Sendable {
            /// https://developer.apple.com/documentation/cryptokit/aes/gcm/nonce/init(data:)
            public init<D: DataProtocol>(data: D) throws { fatalError("declaration only") }
        }

        /// https://developer.apple.com/documentation/cryptokit/aes/gcm/sealedbox
        public struct SealedBox: Sendable {
            /// https://developer.apple.com/documentation/cryptokit/aes/gcm/sealedbox/init(nonce:ciphertext:tag:)
            public init<C: DataProtocol, T: DataProtocol>(nonce: Nonce, ciphertext: C, tag: T) throws { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/aes/gcm/sealedbox/ciphertext
            public var ciphertext: Data { fatalError("declaration only") }
            /// https://developer.apple.com/documentation/cryptokit/aes/gcm/sealedbox/tag
            public var tag: Data { fatalError("declaration only") }
        }

        /// https://developer.apple.com/documentation/cryptokit/aes/gcm/seal(_:using:nonce:authenticating:)
        public static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
            _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil, authenticating authenticatedData: AuthenticatedData
        ) throws -> SealedBox { fatalError("declaration only") }

        /// https://developer.apple.com/documentation/cryptokit/aes/gcm/open(_:using:authenticating:)
        public static func open<AuthenticatedData: DataProtocol>(
            _ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
        ) throws -> Data { fatalError("declaration only") }
    }
}

import Foundation
import SessionCore

/// A private key whose PKCS #8 form tests can write to a key file, as a client's operator would.
/// (Keys are made by the core's ``PlatformPrivateKey``.)
package protocol PKCS8Exportable: Sendable {
    /// The unencrypted PKCS #8 `PrivateKeyInfo`, DER.
    func pkcs8DER() throws -> Data
}

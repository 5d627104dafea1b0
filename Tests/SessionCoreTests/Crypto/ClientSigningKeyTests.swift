import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A client's `private_key_jwt` key: read from PKCS #8 as key files hold it, signing exactly as
/// RS256 and ES256 require, refused with a useful message when it cannot be used, never shown.
final class ClientSigningKeyTests: XCTestCase {
    /// Project Wycheproof's RSASSA-PKCS1-v1_5 generation vectors: PKCS #1 v1.5 is deterministic,
    /// so a key imported from the vectors' PKCS #8 must produce each expected signature byte for byte.
    func testWycheproofRS256SignaturesFromPKCS8Keys() throws {
        var signed = 0
        for size in [2048, 3072, 4096] {
            let vectors = try WycheproofVectors.load("rsa_pkcs1_\(size)_sig_gen_test")
            for group in vectors.groups where group["sha"] as? String == "SHA-256" {
                let der = WycheproofVectors.bytes(try XCTUnwrap(group["privateKeyPkcs8"] as? String))
                let key = try ClientSigningKey(pkcs8DER: der, keyID: "wycheproof")
                XCTAssertEqual(key.algorithm, .rs256)
                let publicKey = try XCTUnwrap(group["privateKey"] as? [String: String])
                XCTAssertEqual(key.publicJWK.n.flatMap(Self.base64URLDecode),
                               WycheproofVectors.bytes(try XCTUnwrap(publicKey["modulus"])).drop { $0 == 0 })
                for test in try XCTUnwrap(group["tests"] as? [[String: Any]]) {
                    let message = WycheproofVectors.bytes(try XCTUnwrap(test["msg"] as? String))
                    let expected = WycheproofVectors.bytes(try XCTUnwrap(test["sig"] as? String))
                    XCTAssertEqual(try key.sign(message), expected, "tcId \(test["tcId"] ?? "?")")
                    signed += 1
                }
            }
        }
        print("Wycheproof RSASSA-PKCS1-v1_5 SHA-256 generation: \(signed) signatures matched")
        XCTAssertEqual(signed, 27, "every SHA-256 vector of the three files was run")
    }

    func testGeneratedKeysReadBackFromTheirPEMFiles() throws {
        for algorithm in JWSAlgorithm.allCases {
            let original = try SigningKey(algorithm: algorithm, keyID: "k1")
            let key = try ClientSigningKey(pem: "Made for a test.\n" + (try original.pkcs8PEM()), keyID: "k1")
            XCTAssertEqual(key.algorithm, algorithm)
            XCTAssertEqual(key.publicJWK, original.publicJWK, "the public half to register is the key's own")
            let message = Data("header.payload".utf8)
            let signature = try key.sign(message)
            XCTAssertTrue(try PlatformCrypto.verify(algorithm, key: original.publicJWK, message: message, signature: signature),
                          "the registered public key verifies what the client key signs")

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("client-key-\(UUID().uuidString).pem")
            try original.pkcs8PEM().write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            // As written (the umask's 0644), others may read it: refused, as ssh refuses such a key.
            XCTAssertThrowsError(try ClientSigningKey(contentsOf: file, keyID: "k1")) { error in
                XCTAssertTrue((error as? SessionError)?.message.contains("chmod 600") == true, "\(error)")
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            XCTAssertEqual(try ClientSigningKey(contentsOf: file, keyID: "k1"), key)
        }
    }

    /// PKCS #8 as Security's PKCS #1 export is wrapped on Apple platforms: the same bytes
    /// libcrypto writes, so a key made there reads back here.
    func testWrappingPKCS1GivesTheLibrarysPKCS8() throws {
        let pem = try SigningKey(algorithm: .rs256).pkcs8PEM()
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try XCTUnwrap(Data(base64Encoded: body))
        let inner = try PKCS8PrivateKey(der: der).privateKey
        XCTAssertEqual(PKCS8PrivateKey.wrapRSA(inner), der)
    }

    func testUnusableKeysAreRefusedWithWhatToDo() throws {
        let rsa = try SigningKey(algorithm: .rs256).pkcs8PEM()
        let cases: [(String, String)] = [
            ("", "no PEM block"),
            ("just some text", "no PEM block"),
            (rsa + rsa, "holds 2 blocks"),
            (rsa.replacingOccurrences(of: "PRIVATE KEY", with: "ENCRYPTED PRIVATE KEY"), "decrypt it first"),
            (rsa.replacingOccurrences(of: "PRIVATE KEY", with: "RSA PRIVATE KEY"), "convert it to PKCS #8"),
            (rsa.replacingOccurrences(of: "PRIVATE KEY", with: "EC PRIVATE KEY"), "convert it to PKCS #8"),
            (rsa.replacingOccurrences(of: "PRIVATE KEY", with: "CERTIFICATE"), "not a private key"),
            (rsa.replacingOccurrences(of: "-----END PRIVATE KEY-----", with: ""), "no END line"),
            (rsa.replacingOccurrences(of: "M", with: "*"), "not base64"),
            (Self.pem(String(Self.body(rsa).prefix(400))), "not PKCS #8 DER"),
            (Self.p384, "not on P-256"),
            (Self.ed25519, "neither RSA nor EC"),
            (Self.rsa1024, "shorter than 2048 bits"),
        ]
        for (pem, expected) in cases {
            do {
                _ = try ClientSigningKey(pem: pem)
                XCTFail("accepted a key that should say '\(expected)'")
            } catch let error as SessionError {
                XCTAssertEqual(error.code, .invalidConfiguration, expected)
                XCTAssertTrue(error.message.contains(expected), "\(error.message) does not say '\(expected)'")
                XCTAssertFalse(error.message.contains(String(Self.body(rsa).prefix(24))), "key material in an error")
            }
        }
        XCTAssertThrowsError(try ClientSigningKey(pem: rsa, keyID: ""))
        XCTAssertThrowsError(try ClientSigningKey(contentsOf: URL(fileURLWithPath: "/nonexistent/key.pem")))
    }

    /// A key file others could replace, or that belongs to another user, is refused, as ssh
    /// refuses such a private key.
    func testAKeyFileOthersCouldChangeOrThatIsAnotherUsersIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("client-key-\(UUID().uuidString).pem")
        try SigningKey(algorithm: .es256, keyID: "k1").pkcs8PEM().write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o620], ofItemAtPath: file.path)
        XCTAssertThrowsError(try ClientSigningKey(contentsOf: file)) { error in
            XCTAssertTrue((error as? SessionError)?.message.contains("has mode 620") == true, "\(error)")
        }
        // Group read is how servers share a secret (root:service 0640): taken.
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
        XCTAssertNoThrow(try ClientSigningKey(contentsOf: file))
        try XCTSkipUnless(geteuid() == 0, "needs root to give the file to another user")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        XCTAssertEqual(chown(file.path, 65534, 65534), 0)
        XCTAssertThrowsError(try ClientSigningKey(contentsOf: file)) { error in
            XCTAssertTrue((error as? SessionError)?.message.contains("belongs to user 65534") == true, "\(error)")
        }
    }

    /// A FIFO where the key file should be is refused at once; reading it would wait for a
    /// writer for ever.
    func testAFIFOInPlaceOfTheKeyFileIsRefusedAtOnce() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("key-fifo-\(UUID().uuidString)")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        XCTAssertThrowsError(try ClientSigningKey(contentsOf: fifo)) { error in
            XCTAssertEqual((error as? SessionError)?.code, .invalidConfiguration)
            XCTAssertTrue((error as? SessionError)?.message.contains("is not a regular file") == true, "\(error)")
        }
    }

    /// An EC key file whose attached public point belongs to another key signs assertions no
    /// provider accepts: refused when it is read, not at the first sign-in.
    func testAKeyWhosePublicHalfIsAnothersIsRefused() throws {
        let first = try XCTUnwrap(Data(base64Encoded: Self.body(try SigningKey(algorithm: .es256).pkcs8PEM())))
        let second = try XCTUnwrap(Data(base64Encoded: Self.body(try SigningKey(algorithm: .es256).pkcs8PEM())))
        // The SEC 1 key inside PKCS #8 ends with the public point, 65 bytes.
        let spliced = first.prefix(first.count - 64) + second.suffix(64)
        XCTAssertThrowsError(try ClientSigningKey(pkcs8DER: spliced)) { error in
            XCTAssertEqual((error as? SessionError)?.code, .invalidConfiguration)
            XCTAssertEqual((error as? SessionError)?.message, "private key: the key's public half does not match its private half")
        }
    }

    func testTheKeyIsNeverShown() throws {
        let pem = try SigningKey(algorithm: .es256).pkcs8PEM()
        let key = try ClientSigningKey(pem: pem, keyID: "ops-2026")
        let configuration = try SessionConfiguration(issuer: URL(string: "https://id.example.com")!, clientID: "svc",
                                                     redirectURI: URL(string: "http://127.0.0.1/cb")!,
                                                     clientAuthentication: .privateKeyJWT(key))
        var dumped = ""
        dump(configuration, to: &dumped)
        let texts = [key.description, String(reflecting: key), "\(configuration)", String(reflecting: configuration), dumped,
                     configuration.clientAuthentication.description]
        let body = Self.body(pem)
        for text in texts {
            XCTAssertFalse(text.contains(String(body.prefix(40))), text)
            XCTAssertFalse(text.contains(String(body.suffix(40))), text)
        }
        XCTAssertEqual(key.description, #"ES256 key "ops-2026" (private key redacted)"#)
        XCTAssertEqual(configuration.clientAuthentication.description, #"private_key_jwt (ES256 key "ops-2026" (private key redacted))"#)
    }

    // MARK: Helpers

    private static func body(_ pem: String) -> String {
        pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    }

    private static func pem(_ body: String) -> String {
        "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----\n"
    }

    private static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    // Throwaway keys made with `openssl genpkey` for this test only: types and sizes the
    // client refuses.
    private static let p384 = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCaPg0L7fO/cbVvVQOL
        jJZBoO8/zVJbllQtKpESEZ8FkQpZV9ooWL5v6dVzoc0BUtyhZANiAAS8HJ24fF7q
        +6fsgeeRF+GLjQRbV+qE7tkRZBuaRLQ7LDipwAgP6l/G2Rn3HboH1wMRRchQE43m
        nlYLTB1tZlPl4YoX/UzdkW8kjO5SINjRu4QW67a0ppluu/nrk6YwCj8=
        -----END PRIVATE KEY-----
        """
    private static let ed25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIHPSh+FgqyeD/PTGHbxy6UPJydCfJmT/KyLSLCJgP0Va
        -----END PRIVATE KEY-----
        """
    private static let rsa1024 = """
        -----BEGIN PRIVATE KEY-----
        MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBAM1e5lTGcTkr1lxx
        8MDG6Jq84poepSpDMCVynqe1n//XNmljc4qLGFiP8DJlUzyfgpYqX2XZkjZxNk3Q
        mKFuOYfoJAb00X3LttRQs+f5E62rXKN9/b0QZZX6RufaCZqjhwp2lMZ/yFZNOT13
        CE+U9Y/rG/Y2wtw8oex3epEsFlMRAgMBAAECgYEAwZT1ie1v5lMDASrJo/0aXlkz
        Q9ElIJwqcvICyNTz10W2XUrIK0yHi1tKL0bBWgCFKCUSvT+DidvXMywv4uKySE81
        M6AJNqP3CMkKDL/ShXhoFzb5vduZ5T4kS3QcpVrgN5MSIQxR0WpHWE48gsib/ZYZ
        FAIZzstH9ShGIyCWDcECQQDy7Zl3/QseAKiMv4zzHBuqpJouCkmHCIe3bvk+xcAv
        nHYdec+URJy0WhvPm7cBCqsYpbGZ9keA/oQ+hnKMERPJAkEA2GvvxrcWq9Chw2/r
        krxkS0Om1iLdRFlifCyq5RQuoRBI1nb3cLWu0Fp6MZ4H0hzanFqvRIkLpY9KPCn9
        qx4ZCQJAYqLat3+FLg9yYIO+RU/aY/UlrR/8Ltnl0TM7/KLqn+pVgy5cfIVHY2ta
        83b0XXXpdr6AWFVJPzUYmRKaHAkrEQJAeLpljLWv6PK+enahtD5xuGap2ASk6C7w
        uJJ2VsoWZPTfnPvKds5zEXmXdrxQYo6ECPqxkQreO2IeqEdIYb+teQJBALaRXyKS
        LIFU7GnnIlVaYPo2TERzqFBxLQ0SwuW+mmkE+DgCgvIhdXhH1bFLUYeZyrajgAnU
        cL/CzqT5cwdPNfk=
        -----END PRIVATE KEY-----
        """
}

import Foundation

/// Which RSA public keys the core agrees to verify with, checked before a key reaches the
/// platform's backend. A provider's key set is input from outside: a key anyone can forge
/// signatures for must be refused, not trusted because the provider published it.
///
/// - The modulus has at least 2048 bits (RFC 7518 §3.3) and at most 8192 (no provider uses more;
///   the bound keeps verification cost bounded).
/// - The public exponent is odd and 3 ≤ e < 2³². An even exponent is no RSA key; e = 1 makes
///   every value its own signature; keys in use have 65537 and a few legacy ones 3. The upper
///   bound is the one common platforms enforce (Windows CNG, Go's crypto/rsa).
/// - The modulus does not carry the fingerprint of the Infineon key generator's weakness
///   (ROCA, CVE-2017-15361), whose private keys can be recovered from the public key.
enum RSAKeyPolicy {
    /// Why the key (`modulus`, `exponent`: big-endian magnitudes) is refused; nil when it is not.
    static func problem(modulus: Data, exponent: Data) -> String? {
        let n = modulus.drop(while: { $0 == 0 })
        let e = exponent.drop(while: { $0 == 0 })
        guard n.count >= 256 else { return "the RSA key is shorter than 2048 bits" }
        guard n.count <= 1024 else { return "the RSA key is longer than 8192 bits" }
        guard let lowest = e.last, lowest & 1 == 1 else { return "the RSA public exponent is even" }
        guard e.count <= 4 else { return "the RSA public exponent is 2^32 or more" }
        guard e.count > 1 || lowest >= 3 else { return "the RSA public exponent is 1" }
        guard n.last.map({ $0 & 1 == 1 }) == true else { return "the RSA modulus is even" }
        if hasROCAFingerprint(n) { return "the RSA key has the ROCA fingerprint (CVE-2017-15361)" }
        return nil
    }

    /// The small primes of the ROCA fingerprint test (Nemec et al., "The Return of Coppersmith's
    /// Attack", CCS 2017): a vulnerable modulus lies, modulo each of them, in the subgroup that
    /// 65537 generates; a modulus from a sound generator almost never does for all of them.
    private static let fingerprintPrimes: [UInt32] = [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67,
                                                      71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137,
                                                      139, 149, 151, 157, 163, 167]

    /// For each fingerprint prime p, the residues 65537^k mod p.
    private static let subgroups: [(prime: UInt32, residues: Set<UInt32>)] = fingerprintPrimes.map { prime in
        var residues: Set<UInt32> = []
        var power: UInt32 = 1
        repeat {
            residues.insert(power)
            power = power * (65537 % prime) % prime
        } while power != 1
        return (prime, residues)
    }

    static func hasROCAFingerprint(_ modulus: some Collection<UInt8>) -> Bool {
        subgroups.allSatisfy { prime, residues in
            residues.contains(modulus.reduce(UInt32(0)) { ($0 << 8 | UInt32($1)) % prime })
        }
    }
}

internal import Crypto
import Foundation
import ShoeboxImaging
internal import _CryptoExtras

/// People's passwords as the catalog keeps them: scrypt (memory-hard: each guess costs an
/// attacker ``Cost/current``'s memory as well as its time), with a random salt per password, in
/// one self-describing text: `scrypt$N$r$p$SALT$KEY` (base64).
///
/// The cost is written with each hash, so it can be raised over time: a password checked against
/// a hash of a lower cost is hashed again at the current one (``needsRehash(_:)``). The current
/// cost is N = 2^15, r = 8, p = 1 — 32 MiB and about 0.1 s a hash in a release build on
/// the development machine (BENCHMARKS.md, Sign-in) — what OWASP's password storage guidance gives as
/// scrypt's minimum for interactive sign-in.
package enum PasswordHash {
    /// scrypt's parameters.
    package struct Cost: Sendable, Equatable {
        /// N, the CPU and memory cost: a power of two.
        package let rounds: Int
        /// r, the block size.
        package let blockSize: Int
        /// p, the parallelism.
        package let parallelism: Int

        /// What new hashes use.
        package static let current = Cost(rounds: 1 << 15, blockSize: 8, parallelism: 1)

        /// The memory one hash takes, in bytes (128 · N · r).
        var memory: Int { 128 * rounds * blockSize }
    }

    /// The shortest password accepted.
    package static let minimumLength = 8
    /// The longest (longer ones would only cost the server time).
    package static let maximumLength = 1_024

    /// A new hash of `password` at `cost`, on the blocking pool (it takes a tenth of a second).
    package static func make(_ password: String, cost: Cost = .current) async throws(LibraryError) -> String {
        guard (minimumLength...maximumLength).contains(password.count) else {
            throw .invalidArgument("a password has \(minimumLength) to \(maximumLength) characters (this one has \(password.count))")
        }
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: .min ... .max, using: &generator) }
        let key = try await derive(password, salt: salt, cost: cost)
        return ["scrypt", String(cost.rounds), String(cost.blockSize), String(cost.parallelism), Data(salt).base64EncodedString(), key.base64EncodedString()]
            .joined(separator: "$")
    }

    /// Whether `password` is the one `hash` was made of (compared in constant time); `false` for
    /// a hash this code cannot read.
    package static func verify(_ password: String, against hash: String) async -> Bool {
        guard password.count <= maximumLength, let parsed = parse(hash) else { return false }
        guard let key = try? await derive(password, salt: parsed.salt, cost: parsed.cost) else { return false }
        guard key.count == parsed.key.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(key, parsed.key) { difference |= left ^ right }
        return difference == 0
    }

    /// Whether `hash` was made at less than the current cost, and should be made again the next
    /// time its password is given.
    package static func needsRehash(_ hash: String) -> Bool {
        guard let cost = parse(hash)?.cost else { return true }
        return cost.rounds < Cost.current.rounds || cost.blockSize < Cost.current.blockSize || cost.parallelism < Cost.current.parallelism
    }

    static func parse(_ hash: String) -> (cost: Cost, salt: [UInt8], key: Data)? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt", let rounds = Int(parts[1]), let blockSize = Int(parts[2]),
            let parallelism = Int(parts[3]), let salt = Data(base64Encoded: String(parts[4])), let key = Data(base64Encoded: String(parts[5])),
            rounds > 1, rounds.nonzeroBitCount == 1, rounds <= 1 << 20, (1...32).contains(blockSize), (1...16).contains(parallelism)
        else { return nil }
        return (Cost(rounds: rounds, blockSize: blockSize, parallelism: parallelism), Array(salt), key)
    }

    private static func derive(_ password: String, salt: [UInt8], cost: Cost) async throws(LibraryError) -> Data {
        do {
            return try await BlockingPool.shared.run {
                let key = try KDF.Scrypt.deriveKey(
                    from: Array(password.utf8), salt: salt, outputByteCount: 32, rounds: cost.rounds, blockSize: cost.blockSize,
                    parallelism: cost.parallelism, maxMemory: cost.memory * cost.parallelism + (1 << 20))
                return key.withUnsafeBytes { Data($0) }
            }
        } catch {
            throw .storage("could not hash the password: \(error)", underlying: error)
        }
    }
}

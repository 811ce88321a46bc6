import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// scrypt's memory counted for every thread of a search together: fewer threads where the
/// tries running at once would take more than the budget, said in the announcement, and a
/// refusal naming the memory one try needs where not even one fits.
@Suite("recover: password memory")
struct PasswordMemoryTests {
  typealias P = PasswordRecoveryTests

  /// eth-keyfile's scrypt keystore: n = 1024, r = 8, p = 1.
  static let keystore = PasswordTarget.keystore(
    try! Web3Keystore(json: try! P.vector("keystores/eth-keyfile-scrypt.json")))
  /// 128·r·(n + p + 2) bytes: 1,051,648.
  static let perTry: UInt64 = 128 * 8 * (1024 + 1 + 2)

  static func passwords() throws -> PasswordSet {
    try PasswordSet(remembered: nil, candidates: P.secret("a\nb\nc\n\(P.keystorePassword)\n"))
  }

  @Test func threadsAreAsManyAsTheBudgetHolds() throws {
    #expect(Self.keystore.memoryPerTry == Self.perTry)
    let search = try PasswordSearch(
      target: Self.keystore, passwords: try Self.passwords(), threads: 8,
      memoryBudget: 3 * Self.perTry + 1)
    #expect(search.threads == 3)
    #expect(search.requestedThreads == 8)
    #expect(search.memoryBudget == 3 * Self.perTry + 1)
    let found = try #require(try search.run().found)
    #expect(found.index == 3)
    #expect(found.opened == .keystore(address: try EthereumAddress("0x" + P.keystoreAddress)))

    let session = try PasswordSession(search, automatic: false)
    #expect(
      RecoveryText.announcement(session, file: "swarm.key")
        == "engine: scrypt (libsodium), one password a thread\n"
        + "scrypt needs 2 MiB a try: using 3 threads of 8 (3 MiB for every thread together)\n"
        + "searching 4 passwords against swarm.key (scrypt n=1024 r=8 p=1) on 3 threads\n")

    // Room for more than asked for: those asked for, and nothing more said.
    let roomy = try PasswordSearch(
      target: Self.keystore, passwords: try Self.passwords(), threads: 2,
      memoryBudget: 100 * Self.perTry)
    #expect(roomy.threads == 2)
    #expect(RecoveryText.memoryLimit(roomy) == nil)
    // One thread's worth exactly.
    let one = try PasswordSearch(
      target: Self.keystore, passwords: try Self.passwords(), threads: 4,
      memoryBudget: Self.perTry)
    #expect(one.threads == 1)
    #expect(
      RecoveryText.memoryLimit(one)
        == "scrypt needs 2 MiB a try: using 1 thread of 4 (1 MiB for every thread together)\n")
  }

  @Test func notEvenOneTryFitsIsRefused() throws {
    #expect(throws: PasswordRecoveryError.notEnoughMemory(needed: Self.perTry, available: 1 << 20))
    {
      try PasswordSearch(
        target: Self.keystore, passwords: try Self.passwords(), threads: 2, memoryBudget: 1 << 20)
    }
    #expect(
      PasswordRecoveryError.notEnoughMemory(needed: 2_013_271_680, available: 1_500 << 20)
        .description
        == "one try of the file's scrypt needs 1,921 MiB of memory, more than the 1,500 MiB this "
        + "search may take (what this machine has available, at most 2,048 MiB for every thread "
        + "together): free memory, or search on a machine with more")
  }

  /// PBKDF2 takes a few hundred bytes a try: the threads are those asked for, whatever the
  /// budget.
  @Test func pbkdf2IsNotBounded() throws {
    let target = PasswordTarget.keystore(
      try Web3Keystore(json: try P.vector("keystores/eth-keyfile-pbkdf2.json")))
    #expect(target.memoryPerTry == nil)
    let search = try PasswordSearch(
      target: target, passwords: try Self.passwords(), threads: 3, memoryBudget: 0)
    #expect(search.threads == 3)
    #expect(search.memoryBudget == nil)
  }

  /// The issue's keystore: n = 2^20, r = 15 takes 1,920 MiB a try, so one thread within the
  /// 2 GiB that every thread shares (two took 3.8 GiB).
  @Test func theIssuesScryptRunsOneAtATime() {
    #expect(Scrypt.memoryByteCount(n: 1 << 20, r: 15, p: 1) == 2_013_271_680)
    #expect(
      Scrypt.parallelDerivations(
        n: 1 << 20, r: 15, p: 1, budget: Scrypt.maximumMemoryByteCount) == 1)
    #expect(Scrypt.parallelDerivations(n: 1 << 15, r: 8, p: 1, budget: 1 << 31) == 63)
    let budget = Scrypt.memoryBudget()
    #expect(budget > 0 && budget <= Scrypt.maximumMemoryByteCount)
  }
}

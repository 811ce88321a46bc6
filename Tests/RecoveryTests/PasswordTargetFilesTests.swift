import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// A checkpoint whose store cannot read it.
struct UnreadablePasswordCheckpoint: PasswordCheckpointStore {
  func load() throws -> PasswordCheckpoint? { throw PasswordRecoveryError.malformedCheckpoint }
  func save(_ checkpoint: PasswordCheckpoint) throws {}
}

/// The file a password opens, read from its bytes; the automatic phases' passwords; a
/// checkpoint that cannot be read.
@Suite("recover: password targets and sets")
struct PasswordTargetFilesTests {
  typealias P = PasswordRecoveryTests

  @Test func aVaultOrAKeystoreFromItsBytes() throws {
    let vault = try PasswordTarget(
      vault: try P.vector("vaults/legacy-no-keymetadata.json"), file: "v.json")
    guard case .vault = vault else {
      Issue.record("not a vault")
      return
    }
    let keystore = try PasswordTarget(
      keystore: try P.vector("keystores/eth-keyfile-pbkdf2.json"), file: "k.json")
    guard case .keystore = keystore else {
      Issue.record("not a keystore")
      return
    }
    let notJSON = Array("not json".utf8)
    #expect {
      try PasswordTarget(vault: notJSON, file: "v.json")
    } throws: { error in
      guard case .notAVault(file: "v.json", _) = error as? PasswordTargetError else { return false }
      // Named once, not twice ("…: the file is not a desktop Freedom identity vault: …").
      return "\(error)".hasPrefix("v.json is not a desktop Freedom identity vault: not valid JSON")
    }
    #expect {
      try PasswordTarget(
        keystore: try P.vector("vaults/legacy-no-keymetadata.json"), file: "k.json")
    } throws: { error in
      guard case .notAKeystore(file: "k.json", _) = error as? PasswordTargetError else {
        return false
      }
      return "\(error)".hasPrefix("k.json is not a web3 v3 keystore: ")
    }
    #expect(
      PasswordTargetError.noVault(file: "/u/identity/identity-vault.json").description
        == "/u/identity/identity-vault.json does not exist: this installation has no vault to open")
  }

  /// With only the password as remembered: up to two likely typos and one edit, or one typo
  /// when two would be too many to hold.
  @Test func theAutomaticPasswords() throws {
    let short = try PasswordSet(automatic: P.secret("ab1"))
    let two = try PasswordSet(remembered: P.secret("ab1"), typos: 2, oneEdit: true)
    #expect(P.texts(short) == P.texts(two))
    #expect(short.levels.map(\.level) == two.levels.map(\.level))

    // Two likely typos of a long password are refused before any is made; one is not.
    let long = P.secret(String(repeating: "correct horse battery staple ", count: 8))
    let twoRefused = (try? PasswordSet(remembered: long, typos: 2, oneEdit: true)) == nil
    #expect(twoRefused)
    let fallback = try PasswordSet(automatic: long)
    let one = try PasswordSet(remembered: long, typos: 1, oneEdit: true)
    #expect(fallback.count == one.count)
    #expect(fallback.levels.map(\.level) == [.remembered, .likelyTypos(1), .oneEdit])
  }

  /// A checkpoint the store cannot read is a mismatch, as one of another search is.
  @Test func anUnreadableCheckpointIsAMismatch() throws {
    let set = try PasswordSet(remembered: nil, candidates: P.secret("a\n"))
    let session = try PasswordSession(
      PasswordSearch(target: PasswordPartTests.keystore, passwords: set, threads: 1),
      automatic: false, hashed: true)
    #expect {
      try session.run(checkpoint: UnreadablePasswordCheckpoint())
    } throws: { error in
      (error as? PasswordSession.CheckpointMismatch)?.reason == .malformedCheckpoint
    }
  }
}

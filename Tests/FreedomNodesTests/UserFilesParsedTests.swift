import CryptoPrimitives
import FreedomNodes
import Testing
import VaultKeys

/// A keystore file a user names: opened, its key's address checked with the password, each
/// refusal one line naming the file.
@Suite struct UserKeystoreTests {
  @Test func opensAndChecksThePassword() throws {
    let fixture = try NodeFixture()
    let path = try fixture.bytes(
      "key.json", try NodeFixture.keystore(NodeFixture.profile, password: "right"))
    let unchecked = try UserFiles.keystore(path, password: nil)
    #expect(unchecked.keyAddress == nil)

    var derivations = 0
    let opened = try UserFiles.keystore(path, password: SecureBytes(utf8: "right")) { event in
      if case .keyDerivation(false, path, _) = event { derivations += 1 }
    }
    #expect(opened.keyAddress == NodeFixture.profile.swarm.address)
    #expect(derivations == 1)
  }

  @Test func eachRefusalNamesTheFile() throws {
    let fixture = try NodeFixture()
    func refusal(_ path: String, _ password: String? = nil) -> String? {
      do {
        _ = try UserFiles.keystore(path, password: password.map { SecureBytes(utf8: $0) })
        return nil
      } catch {
        return error.description
      }
    }
    let missing = fixture.path("none.json")
    #expect(refusal(missing) == "\(missing) does not exist")
    let key = try fixture.bytes(
      "key.json", try NodeFixture.keystore(NodeFixture.profile, password: "right"))
    #expect(refusal(key, "wrong") == "wrong password for \(key): its MAC does not match")
    let other = try fixture.file("other.json", "{}")
    #expect(refusal(other)?.hasPrefix("\(other): ") == true)
  }
}

/// Desktop's vault-meta.json a user names, or finds beside the vault.
@Suite struct UserVaultMetaTests {
  @Test func isFoundBesideTheVaultAndRead() throws {
    let fixture = try NodeFixture()
    let vault = try fixture.file("identity/identity-vault.json", "{}")
    #expect(UserFiles.vaultMeta(besideVault: vault) == nil)
    #expect(UserFiles.vaultMeta(besideVault: "-") == nil)
    let meta = try fixture.file("identity/vault-meta.json", "not json")
    #expect(UserFiles.vaultMeta(besideVault: vault) == meta)
    #expect(throws: UserFiles.VaultMetaFileError.self) { try UserFiles.vaultMeta(meta) }
    do {
      _ = try UserFiles.vaultMeta(meta)
    } catch {
      #expect(error.description.hasPrefix("\(meta): "))
    }
    #expect(try UserFiles.vaultMeta(fixture.path("identity/none.json")) == nil)
  }
}

import FreedomNodes
import Testing

/// Desktop Freedom's userData layout, as its main process lays it out.
@Suite struct DesktopUserDataTests {
  @Test func layout() {
    let data = DesktopUserData.linuxDefault(home: "/home/u", xdgConfigHome: nil)
    #expect(data.root == "/home/u/.config/Freedom")
    #expect(data.antKeystore == "/home/u/.config/Freedom/ant-data/keys/swarm.key")
    #expect(data.antConfig == "/home/u/.config/Freedom/ant-data/config.yaml")
    #expect(data.vault == "/home/u/.config/Freedom/identity/identity-vault.json")
    #expect(data.vaultMeta == "/home/u/.config/Freedom/identity/vault-meta.json")
    #expect(data.beeData == "/home/u/.config/Freedom/bee-data")
    #expect(data.catalogRadicleHome(slot: 0) == "/home/u/.config/Freedom/R/0")
    #expect(data.radicleData == "/home/u/.config/Freedom/radicle-data")
    #expect(DesktopUserData.linuxDefault(home: "/h", xdgConfigHome: "/x/").root == "/x/Freedom")
    #expect(
      DesktopUserData.linuxDefault(home: "/h", xdgConfigHome: "").root == "/h/.config/Freedom")
  }
}

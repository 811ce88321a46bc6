import FreedomNodes
import Testing

/// The registry commands build their node directory options from.
@Suite struct NodeDirectoryKindTests {
  @Test func everyKindNamesItsOptionOnce() {
    #expect(
      NodeDirectoryKind.all.map(\.option) == [
        "bee-dir", "kubo-repo", "radicle-home", "ant-dir", "antd-dir",
      ])
    #expect(NodeDirectoryKind.all.map(\.title) == ["bee", "kubo", "Radicle", "Ant", "antd"])
    #expect(Set(NodeDirectoryKind.all.map(\.option)).count == NodeDirectoryKind.all.count)
  }

  @Test func aKindIsFoundByItsOption() {
    #expect(NodeDirectoryKind.named("antd-dir")?.title == "antd")
    #expect(NodeDirectoryKind.named("freedom-dir") == nil)
  }

  @Test func onlyBeeTakesTheKeystorePasswordGiven() {
    #expect(NodeDirectoryKind.all.filter(\.takesPassword).map(\.option) == ["bee-dir"])
    #expect(
      NodeDirectoryKind.all.filter(\.holdsSwarmKeystore).map(\.option) == ["bee-dir", "antd-dir"])
  }

  @Test func helpLinesComeFromTheLayouts() {
    #expect(Bee.kind.checks == "bee's <dir>/keys/swarm.key")
    #expect(Kubo.kind.target == "kubo's <dir>/config PeerID")
    #expect(Radicle.kind.checks == "<dir>/keys/radicle and its .pub")
  }
}

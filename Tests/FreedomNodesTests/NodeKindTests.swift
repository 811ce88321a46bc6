import FreedomNodes
import Testing

/// The registry commands build their node directory options from.
@Suite struct NodeKindTests {
  @Test func everyKindNamesItsOptionOnce() {
    #expect(
      NodeKind.all.map(\.option) == ["bee-dir", "kubo-repo", "radicle-home", "ant-dir", "antd-dir"])
    #expect(NodeKind.all.map(\.title) == ["bee", "kubo", "Radicle", "Ant", "antd"])
    #expect(Set(NodeKind.all.map(\.option)).count == NodeKind.all.count)
  }

  @Test func aKindIsFoundByItsOption() {
    #expect(NodeKind.named("antd-dir")?.title == "antd")
    #expect(NodeKind.named("freedom-dir") == nil)
  }

  @Test func onlyBeeTakesTheKeystorePasswordGiven() {
    #expect(NodeKind.all.filter(\.takesPassword).map(\.option) == ["bee-dir"])
    #expect(NodeKind.all.filter(\.holdsSwarmKeystore).map(\.option) == ["bee-dir", "antd-dir"])
  }

  @Test func helpLinesComeFromTheLayouts() {
    #expect(Bee.kind.checks == "bee's <dir>/keys/swarm.key")
    #expect(Kubo.kind.target == "kubo's <dir>/config PeerID")
    #expect(Radicle.kind.checks == "<dir>/keys/radicle and its .pub")
  }
}

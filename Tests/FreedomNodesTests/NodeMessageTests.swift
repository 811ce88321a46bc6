import Foundation
import FreedomNodes
import NodeFiles
import Testing
import VaultKeys

/// Library text names no flag and no tool: where a message needs one it carries a typed remedy,
/// which the tool words from one table.
@Suite struct NodeMessageTests {
  static let errors: [NodeError] = [
    .kuboWithoutPeerID(path: "/r/config"),
    .notARegularFile(path: "/r/config", symbolicLink: true),
    .missingFile(path: "/r/config", needed: .kuboConfig(repository: "/r")),
    .missingFile(path: "/b/keys/swarm.key", needed: .recoveryTarget),
    .running(.antd, directory: "/a", lock: "/a/antd.lock"),
    .running(.kuboDaemon(process: 7), directory: "/k", lock: "/k/repo.lock"),
    .passwordConflict(.beePasswordFile(path: "/b/password")),
    .passwordConflict(.antdConfigPassword(config: "/a/config.yaml")),
    .invalidInput(.keystoreWithoutAddress(path: "/b/keys/swarm.key")),
    .wrongDirectory(path: "/u", .absent, wanted: .desktopInstallation),
    .wrongDirectory(path: "/u", .desktopUserData(antData: "/u/ant-data"), wanted: .beeData),
    .noProfileRegistry(appRoot: "/f"),
    .ambiguousProfile(appRoot: "/f", ids: ["a", "b"]),
    .nothingToUndo(directory: "/b"),
    .notANodeDirectory("/x"),
    .refused([NodeConflict(path: "/b/keys/swarm.key", found: .key("0xAB"), expected: "0xCD")]),
  ]

  @Test(arguments: errors) func aMessageNamesNoFlagAndNoTool(_ error: NodeError) {
    for operation in [NodeOperation.export, .verify, .recover] {
      // The backup folder's name is a layout constant, not the tool speaking.
      let text = error.message(operation).rendered { _ in "" }
        .replacingOccurrences(of: NodeLayout.replacedName, with: "")
      #expect(!text.contains("--"), "\(text)")
      #expect(!text.contains("freedom-keys"), "\(text)")
    }
  }

  @Test func remediesAreTyped() {
    let daemon = NodeError.running(
      .kuboDaemon(process: 7), directory: "/k", lock: "/k/repo.lock"
    ).message(.export)
    #expect(daemon.remedies == [.runAgain])
    #expect(
      daemon.rendered { _ in "try again" }
        == "a kubo daemon (process 7) holds /k/repo.lock; stop it (ipfs shutdown) and try again")
    #expect(NodeError.kuboWithoutPeerID(path: "/c").message(.recover).remedies == [.givePeerID])
    #expect(
      NodeError.invalidInput(.keystoreWithoutAddress(path: "/k")).message(.recover).remedies
        == [.giveAddress])
    #expect(
      NodeError.invalidInput(.keystoreWithoutAddress(path: "/k")).message(.verify).remedies
        == [.passwordFile])
    #expect(
      NodeError.noProfileRegistry(appRoot: "/f").message(.export).remedies == [.profile, .create])
    #expect(NodeError.noProfileRegistry(appRoot: "/f").message(.verify).remedies == [.profile])
    let conflict = NodeConflict(path: "/b/keys/swarm.key", found: .key("0xAB"), expected: "0xCD")
    #expect(NodeConflict.refusal([conflict]).remedies == [.force])
  }

  @Test func theRemedyIsWordedWhereTheTextLeavesIt() {
    let message = NodeError.kuboWithoutPeerID(path: "/r/config").message(.verify)
    #expect(
      message.rendered { $0 == .givePeerID ? "<peer>" : "?" }
        == "/r/config has no Identity.PeerID; run 'ipfs init' or <peer>")
  }

  @Test func aWrongDirectoryInVerifyIsAMismatch() {
    let error = NodeError.wrongDirectory(
      path: "/u", .nothingOfFreedom(empty: true), wanted: .desktopInstallation)
    #expect(error.isMismatch(.verify))
    #expect(!error.isMismatch(.export))
    let antd = NodeError.wrongDirectory(
      path: "/u", .nodeDirectory(.kubo), wanted: .antdData)
    #expect(!antd.isMismatch(.verify))
  }

  @Test func shellQuoting() {
    #expect(NodeMessage.shellQuoted("/a/b") == "/a/b")
    #expect(NodeMessage.shellQuoted("/a b/it's") == "'/a b/it'\\''s'")
  }
}

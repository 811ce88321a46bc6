import NodeFiles

/// Layouts for the engine's own tests: the node layouts live in FreedomNodes, which NodeFiles
/// does not know; these have the same shape as bee's, kubo's, Radicle's and Ant's.
extension NodeLayout {
  static let bee = NodeLayout(
    name: "bee data directory",
    files: ["keys/swarm.key", "keys/libp2p_v2.key", "keys/pss.key", "password"],
    identityDirectory: "keys",
    identityState: [
      "keys/libp2p_v2.key", "keys/pss.key", "statestore", "localstore", "kademlia-metrics",
      "stamperstore",
    ])

  static let kubo = NodeLayout(
    name: "kubo repository", files: ["config"], identityDirectory: nil, identityState: [])

  static let radicle = NodeLayout(
    name: "Radicle home", files: ["keys/radicle", "keys/radicle.pub", "config.json"],
    identityDirectory: "keys", identityState: [])

  static let ant = NodeLayout(
    name: "Ant data directory", files: ["identity.json"], identityDirectory: nil,
    identityState: [])
}

extension NodeLayout {
  /// bee's data directory (`--data-dir`): `keys/swarm.key` (the Web3 keystore), bee's own
  /// `keys/libp2p_v2.key` and `keys/pss.key`, the `password` file freedom-keys writes, and the
  /// stores bee keeps for its overlay.
  public static let bee = NodeLayout(
    name: "bee data directory",
    files: ["keys/swarm.key", "keys/libp2p_v2.key", "keys/pss.key", "password"],
    identityDirectory: "keys",
    identityState: [
      "keys/libp2p_v2.key", "keys/pss.key", "statestore", "localstore", "kademlia-metrics",
      "stamperstore",
    ])

  /// A kubo repository (`IPFS_PATH`): `config` holds Identity.PeerID and PrivKey; `repo.lock`
  /// is the daemon's lock; `keystore/` holds other named keys, not the node's identity.
  public static let kubo = NodeLayout(
    name: "kubo repository", files: ["config"], identityDirectory: nil, identityState: [])

  /// A Radicle home (`RAD_HOME`): the key pair `keys/radicle` and `keys/radicle.pub`, and
  /// `config.json` with the node alias.
  public static let radicle = NodeLayout(
    name: "Radicle home", files: ["keys/radicle", "keys/radicle.pub", "config.json"],
    identityDirectory: "keys", identityState: [])

  /// Ant's data directory: `identity.json` with the Swarm signing key.
  public static let ant = NodeLayout(
    name: "Ant data directory", files: ["identity.json"], identityDirectory: nil,
    identityState: [])
}

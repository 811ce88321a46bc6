extension NodeLayout {
  /// antd's data directory (desktop Freedom's `<userData>/ant-data`): `keys/swarm.key` (the
  /// Swarm wallet's V3 keystore) and `config.yaml` (whose `password:` opens it). What belongs
  /// to the identity a new key replaces is what desktop Freedom removes when it injects one
  /// (`wipeStaleBeeState`): antd's self-made `identity.json` and `signing.key`, the stores and
  /// bee-era keys. antd ignores `identity.json` while `keys/swarm.key` exists.
  public static let antd = NodeLayout(
    name: "antd data directory", files: ["keys/swarm.key", "config.yaml"],
    identityDirectory: "keys",
    identityState: [
      "identity.json", "signing.key", "keys/libp2p_v2.key", "keys/pss.key", "statestore",
      "localstore", "kademlia-metrics", "stamperstore",
    ])

  /// What antd made itself: removed whenever a keystore is put in place, as desktop does.
  public static let antdSelfMadeIdentity = ["identity.json", "signing.key"]
}

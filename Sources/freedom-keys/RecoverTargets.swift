import CommandLineKit
import CryptoPrimitives
import PhraseRecovery
import VaultKeys

extension RecoverCommand {
  /// The targets the options name (not the directories'), and whether an --address is looked
  /// for at --accounts' paths (not at --path's).
  static func parseTargets(_ arguments: ParsedArguments, accounts: Int) throws(CLIError)
    -> ([RecoveryTarget], addressByAccounts: Bool)
  {
    var paths: [DerivationPath]?
    if let text = arguments.value(Self.path) {
      // The target says the curve: an address is secp256k1, a PeerID or DID Ed25519.
      guard [Self.address, Self.peerID, Self.did].filter({ arguments.value($0) != nil }).count == 1
      else {
        throw arguments.usage(
          "--path <template> applies to one target: give it with one of --address, --peer-id "
            + "or --did")
      }
      guard arguments.value(Self.accounts) == nil else {
        throw arguments.usage(
          "--path <template> names the paths itself: give --accounts <n> or --path, not both")
      }
      do {
        paths = try DerivationPathTemplate(text).paths
      } catch {
        throw arguments.usage("--path: \(error)")
      }
    }

    var targets: [RecoveryTarget] = []
    if let text = arguments.value(Self.address) {
      do {
        let address = try EthereumAddress(text)
        targets.append(
          paths.map { .address(address, paths: $0) } ?? .address(address, accounts: accounts))
      } catch {
        throw arguments.usage("--address: \(error)")
      }
    }
    if let text = arguments.value(Self.peerID) {
      let peerID: Libp2pPeerID
      do {
        peerID = try Libp2pPeerID(text)
      } catch {
        throw arguments.usage("--peer-id: \(error)")
      }
      targets.append(
        try paths.map { paths throws(CLIError) in
          try Self.ed25519(arguments) { () throws(KeyDerivationError) in
            try .peerID(peerID, paths: paths)
          }
        } ?? .peerID(peerID))
    }
    if let text = arguments.value(Self.did) {
      let identity: RadicleIdentity
      do {
        identity = try RadicleIdentity(text)
      } catch {
        throw arguments.usage("--did: \(error)")
      }
      targets.append(
        try paths.map { paths throws(CLIError) in
          try Self.ed25519(arguments) { () throws(KeyDerivationError) in
            try .radicle(identity, paths: paths)
          }
        } ?? .radicle(identity))
    }
    let networkID = try arguments.value(Self.networkID)
    let givenNonce = try arguments.value(Self.overlayNonce)
    if let text = arguments.value(Self.overlay) {
      guard let bytes = Hex.decode(text), bytes.count == SwarmOverlay.byteCount else {
        throw arguments.usage("--overlay <hex> must be 64 hex digits (32 bytes)")
      }
      let nonce = givenNonce ?? [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount)
      targets.append(
        .overlay(bytes, networkID: networkID ?? SwarmOverlay.mainnet, nonce: nonce))
    } else if networkID != nil || givenNonce != nil {
      throw arguments.usage("--network-id and --overlay-nonce only apply with --overlay <hex>")
    }
    return (targets, arguments.value(Self.address) != nil && paths == nil)
  }

  /// A PeerID or DID target at `--path`'s paths, which SLIP-0010 allows with hardened steps only.
  private static func ed25519(
    _ arguments: ParsedArguments, _ target: () throws(KeyDerivationError) -> RecoveryTarget
  ) throws(CLIError) -> RecoveryTarget {
    do {
      return try target()
    } catch {
      guard case .nonHardenedEd25519(let position, _) = error else {
        throw arguments.usage("--path: \(error)")
      }
      throw arguments.usage(
        "--path: a PeerID or DID key (Ed25519, SLIP-0010) is derived through hardened steps "
          + "only, and step \(position) is not: mark every step with ', as in m/44'/73405'/{0-4}'/0'/0'"
      )
    }
  }

}

import VaultKeys
import Wording

/// How a refusal words itself: every conflict named, and what consent would cover them.
extension NodeConflict {
  /// One refusal naming every conflict; the hint says what `.force` does (for Ant's file, with
  /// the nonce `antNonce` an export writes), or the consent still missing when `consent`
  /// covers some of them.
  package static func refusal(
    _ conflicts: [NodeConflict], antNonce: AntIdentity.NonceRule = .zero,
    consent: ExportConsent = ExportConsent()
  ) -> NodeMessage {
    // What .force would still have to cover (a vault .replaceVault covers is named too).
    let pending = conflicts.filter { !consent.covers($0) }
    let single: NodeMessage =
      switch pending.count {
      case 1:
        pending[0].hint(antNonce: antNonce, it: conflicts.count == 1 ? "it" : "the node key named")
      case conflicts.count: "\(remedy: .force) replaces it and the others named"
      default: "\(remedy: .force) replaces the node keys named"
      }
    let hint = consentHint(conflicts, consent: consent, single: single)
    return conflicts.map(\.description).joined(separator: "; ")
      + "; nothing was written (\(hint))"
  }

  /// The hint for this conflict, `it` naming it.
  private func hint(antNonce: AntIdentity.NonceRule, it: String) -> NodeMessage {
    switch found {
    case .antdOwnIdentity: "\(remedy: .force) removes \(it)"
    case .sameKeyRunDifferently:
      "\(remedy: .force) writes the file afresh with \(antNonce.name) and no libp2p_keypair"
    default: "\(remedy: .force) replaces \(it)"
    }
  }

  /// The hint after a refusal: which consent covers which conflicts, of those `consent` does
  /// not cover yet.
  private static func consentHint(
    _ conflicts: [NodeConflict], consent: ExportConsent, single: NodeMessage
  ) -> NodeMessage {
    let vaults = consent.replacesVault ? [] : conflicts.filter { $0.consent == .vault }
    let others =
      consent.replacesOtherIdentities ? [] : conflicts.filter { $0.consent == .otherIdentities }
    guard !vaults.isEmpty else { return single }
    let vault: NodeMessage =
      "\(remedy: .replaceVault) replaces the vault, kept in the backup directory (it may hold "
      + "your wallet: back its mnemonic up first)"
    guard !others.isEmpty else { return vault }
    let named = others.count == 1 ? "the node key named" : "the node keys named"
    return "\(remedy: .force) replaces \(named); \(vault)"
  }

  /// The conflict in words: what the path holds instead of the mnemonic's identity.
  package var description: String {
    switch found {
    case .key(let key): return "\(path) holds the key of \(key), not the mnemonic's \(expected)"
    case .radicleKey(let did): return "\(path) holds the key \(did), not the mnemonic's \(expected)"
    case .keyWithoutAddress:
      return "\(path) holds a key without address, not the mnemonic's \(expected)"
    case .peerID(let peerID):
      return "\(path) holds PeerID \(peerID), not the mnemonic's \(expected)"
    case .peerIDWithOtherKey(let peerID):
      return
        "\(path) holds PeerID \(peerID) with another private key, not the mnemonic's \(expected)"
    case .privateKeyWithoutPeerID:
      return "\(path) holds a private key without PeerID, not the mnemonic's \(expected)"
    case .sameKeyRunDifferently(let problems):
      return "\(path) holds the Swarm key \(expected), but " + problems.joined(separator: "; ")
    case .antdOwnIdentity(let key):
      return "\(path) holds \(key.map { "the key of \($0)" } ?? "a key that cannot be read"), "
        + "antd's own identity, not the mnemonic's \(expected)"
    case .otherVault:
      return "\(path) holds another vault (it opens with the password given to another "
        + "mnemonic)"
    case .vaultNotOpened(let quickSetup):
      return "\(path) holds a vault the password given does not open"
        + (quickSetup
          ? " (a Quick Setup vault: its password lives in the OS keyring)" : "")
    case .unreadable(let reason): return "\(path) cannot be read: \(reason)"
    }
  }
}

extension NodeConflict.Found {
  /// What was found, in a word or with the identity it holds (a refusal's `found`).
  package var summary: String {
    switch self {
    case .key(let key), .radicleKey(let key), .peerID(let key): key
    case .peerIDWithOtherKey(let peerID): "\(peerID) with another private key"
    case .keyWithoutAddress: "a key without address"
    case .privateKeyWithoutPeerID: "a private key without PeerID"
    case .sameKeyRunDifferently(let problems): problems.joined(separator: "; ")
    case .antdOwnIdentity(let key): "antd's own identity " + (key ?? "(unreadable)")
    case .otherVault: "another vault"
    case .vaultNotOpened(let quickSetup):
      quickSetup
        ? "a Quick Setup vault (its password is in the OS keyring)"
        : "a vault the password given does not open"
    case .unreadable(let reason): "unreadable: \(reason)"
    }
  }
}

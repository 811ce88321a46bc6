import CryptoPrimitives
import VaultKeys

/// An identity of the Freedom profile that a recovery target may be.
package enum RecoveryIdentity: Hashable, Sendable, CustomStringConvertible {
  /// Wallet i, m/44'/60'/i'/0/0 (0 is the user wallet).
  case wallet(UInt32)
  /// The Swarm (bee) wallet, m/44'/60'/0'/0/1.
  case swarm
  /// Swarm publisher key i, m/44'/73406'/i'/0/0.
  case publisher(UInt32)
  /// MetaMask's (and most wallets') account i, m/44'/60'/0'/0/i; 0 is the user wallet and 1
  /// the Swarm wallet, so only i ≥ 2 is an identity of its own.
  case metamask(UInt32)
  /// A secp256k1 key at any path (`--path` with an address).
  case custom(DerivationPath)
  /// An Ed25519 (SLIP-0010) key at any path of hardened steps (`--path` with a PeerID or DID).
  case ed25519(DerivationPath)
  /// The IPFS (kubo) key, m/44'/73405'/0'/0'/0'.
  case ipfs
  /// The Radicle key, m/44'/73404'/0'/0'/0'.
  case radicle

  /// The name reports give a match: `swarm.address`, `wallets[2].address`, `ipfs.peerId`.
  package var description: String {
    switch self {
    case .wallet(0): "wallet.address"
    case .wallet(let index): "wallets[\(index)].address"
    case .swarm: "swarm.address"
    case .publisher(let index): "publishers[\(index)].address"
    case .metamask(let index): "metamask[\(index)].address"
    case .custom(let path), .ed25519(let path): path.description
    case .ipfs: "ipfs.peerId"
    case .radicle: "radicle.did"
    }
  }

  /// Where the identity's key is derived.
  package var path: DerivationPath {
    switch self {
    case .wallet(let index): try! FreedomProfile.walletPath(index: index)
    case .swarm: FreedomProfile.swarmPath
    case .publisher(let index): try! FreedomProfile.publisherPath(index: index)
    case .metamask(let index):
      FreedomProfile.swarmPath.parent.appending(try! .init(index: index, hardened: false))
    case .custom(let path), .ed25519(let path): path
    case .ipfs: FreedomProfile.ipfsPath
    case .radicle: FreedomProfile.radiclePath
    }
  }

  var isEd25519: Bool {
    switch self {
    case .ipfs, .radicle, .ed25519(_): true
    default: false
    }
  }
}

/// A public fact of the identity a damaged phrase belongs to, compared as raw bytes.
package struct RecoveryTarget: Sendable, Equatable {
  enum Value: Sendable, Equatable {
    /// 20 address bytes.
    case address([UInt8])
    /// A 32-byte Ed25519 public key.
    case ed25519([UInt8])
    /// 32 overlay bytes of the Swarm wallet on a network with a nonce.
    case overlay([UInt8], networkID: UInt64, nonce: [UInt8])
  }

  let value: Value
  /// The identities the target may be.
  package let identities: [RecoveryIdentity]

  /// An address that may be the user wallet, the Swarm wallet, for i < `accounts` Freedom's
  /// wallet i (m/44'/60'/i'/0/0) or MetaMask's account i (m/44'/60'/0'/0/i), or publisher key i.
  package static func address(_ address: EthereumAddress, accounts: Int = 3) -> RecoveryTarget {
    let count = UInt32(max(1, accounts))
    let identities: [RecoveryIdentity] =
      [.swarm] + (0..<count).map { .wallet($0) } + (min(2, count)..<count).map { .metamask($0) }
      + (0..<count).map { .publisher($0) }
    return RecoveryTarget(value: .address(address.rawRepresentation), identities: identities)
  }

  /// An address at one of `paths` (secp256k1 keys; `DerivationPathTemplate.paths`).
  package static func address(_ address: EthereumAddress, paths: [DerivationPath])
    -> RecoveryTarget
  {
    RecoveryTarget(
      value: .address(address.rawRepresentation), identities: paths.map { .custom($0) })
  }

  /// The address of one identity (`.swarm` for a bee node's key, `.wallet(0)` for the user
  /// wallet).
  package static func address(_ address: EthereumAddress, of identity: RecoveryIdentity)
    -> RecoveryTarget
  {
    RecoveryTarget(value: .address(address.rawRepresentation), identities: [identity])
  }

  /// The IPFS node's peer ID.
  package static func peerID(_ peerID: Libp2pPeerID) -> RecoveryTarget {
    RecoveryTarget(value: .ed25519(peerID.publicKey.rawRepresentation), identities: [.ipfs])
  }

  /// The Radicle node id or DID.
  package static func radicle(_ identity: RadicleIdentity) -> RecoveryTarget {
    RecoveryTarget(value: .ed25519(identity.publicKey.rawRepresentation), identities: [.radicle])
  }

  /// A PeerID whose Ed25519 key is at one of `paths`; every step must be hardened, as
  /// SLIP-0010 derives Ed25519 keys through hardened steps only.
  package static func peerID(_ peerID: Libp2pPeerID, paths: [DerivationPath])
    throws(KeyDerivationError) -> RecoveryTarget
  {
    try ed25519(peerID.publicKey.rawRepresentation, paths: paths)
  }

  /// A Radicle node id or DID whose key is at one of `paths` (hardened steps only).
  package static func radicle(_ identity: RadicleIdentity, paths: [DerivationPath])
    throws(KeyDerivationError) -> RecoveryTarget
  {
    try ed25519(identity.publicKey.rawRepresentation, paths: paths)
  }

  private static func ed25519(_ publicKey: [UInt8], paths: [DerivationPath])
    throws(KeyDerivationError) -> RecoveryTarget
  {
    for path in paths {
      if let offset = path.components.firstIndex(where: { !$0.isHardened }) {
        throw .nonHardenedEd25519(position: offset + 1, path: path)
      }
    }
    return RecoveryTarget(value: .ed25519(publicKey), identities: paths.map { .ed25519($0) })
  }

  /// The Swarm overlay (32 bytes) on `networkID` with `nonce` (zero unless bee mined one).
  package static func overlay(
    _ overlay: [UInt8], networkID: UInt64 = SwarmOverlay.mainnet,
    nonce: [UInt8] = [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount)
  ) -> RecoveryTarget {
    RecoveryTarget(
      value: .overlay(overlay, networkID: networkID, nonce: nonce), identities: [.swarm])
  }

  /// What a match of this target through `identity` is reported as.
  func label(for identity: RecoveryIdentity) -> String {
    if case .overlay = value { return "swarm.overlay" }
    return identity.description
  }

  /// The bytes that identify the target, for the hash of a search definition.
  package var definitionBytes: [UInt8] {
    var bytes: [UInt8]
    switch value {
    case .address(let raw): bytes = [1] + raw
    case .ed25519(let raw): bytes = [2] + raw
    case .overlay(let raw, let networkID, let nonce):
      bytes = [3] + raw + nonce
      withUnsafeBytes(of: networkID.littleEndian) { bytes += $0 }
    }
    for identity in identities { bytes += Array(identity.description.utf8) + [0] }
    return bytes
  }
}

extension DerivationPath {
  /// The path without its last component.
  fileprivate var parent: DerivationPath { DerivationPath(components: components.dropLast()) }
}

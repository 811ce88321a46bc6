import CryptoPrimitives
import VaultKeys

/// The targets a recovery is given as text, as a user writes them: an address (tried at the
/// first accounts' paths, or at a template's), a PeerID or a Radicle DID (at their own paths or
/// a template's); a Swarm overlay (with its network and nonce) is `overlay(_:networkID:nonce:)`.
/// Node directories' targets are FreedomNodes'.
package struct GivenTargets: Sendable {
  /// An Ethereum address, "0x" and 40 hex digits.
  package var address: String?
  /// The accounts an address is tried at (`RecoveryTarget.address(_:accounts:)`), and whether
  /// that number was given (a template names the paths itself).
  package var accounts = 3
  package var accountsGiven = false
  /// A path template ("m/44'/60'/0'/0/{0-19}") for the one target given.
  package var pathTemplate: String?
  /// An IPFS PeerID (12D3… or k51…).
  package var peerID: String?
  /// A Radicle DID or node id (z6Mk…).
  package var did: String?

  package init() {}

  /// The targets, in the order address, PeerID, DID; and whether an address is looked
  /// for at the accounts' paths (not at a template's).
  package func targets() throws(GivenTargetError)
    -> (targets: [RecoveryTarget], addressByAccounts: Bool)
  {
    var paths: [DerivationPath]?
    if let pathTemplate {
      // The target says the curve: an address is secp256k1, a PeerID or DID Ed25519.
      guard [address, peerID, did].filter({ $0 != nil }).count == 1 else {
        throw .templateNeedsOneTarget
      }
      guard !accountsGiven else { throw .templateAndAccounts }
      do {
        paths = try DerivationPathTemplate(pathTemplate).paths
      } catch {
        throw .template(error)
      }
    }
    var targets: [RecoveryTarget] = []
    if let address {
      let parsed: EthereumAddress
      do {
        parsed = try EthereumAddress(address)
      } catch {
        throw .address(error)
      }
      targets.append(
        paths.map { .address(parsed, paths: $0) } ?? .address(parsed, accounts: accounts))
    }
    if let peerID {
      let parsed: Libp2pPeerID
      do {
        parsed = try Libp2pPeerID(peerID)
      } catch {
        throw .peerID(error)
      }
      targets.append(
        try Self.ed25519(paths) { paths throws(KeyDerivationError) in
          try .peerID(parsed, paths: paths)
        } ?? .peerID(parsed))
    }
    if let did {
      let parsed: RadicleIdentity
      do {
        parsed = try RadicleIdentity(did)
      } catch {
        throw .did(error)
      }
      targets.append(
        try Self.ed25519(paths) { paths throws(KeyDerivationError) in
          try .radicle(parsed, paths: paths)
        } ?? .radicle(parsed))
    }
    return (targets, address != nil && paths == nil)
  }

  /// The target of a Swarm overlay address, 64 hex digits, of `networkID` (mainnet when nil)
  /// and `nonce` (zero when nil); nil when none is given, which neither may then be.
  package static func overlay(_ hex: String?, networkID: UInt64?, nonce: [UInt8]?)
    throws(GivenTargetError) -> RecoveryTarget?
  {
    guard let hex else {
      guard networkID == nil, nonce == nil else { throw .overlayParametersWithoutOverlay }
      return nil
    }
    guard let bytes = Hex.decode(hex), bytes.count == SwarmOverlay.byteCount else {
      throw .overlay
    }
    return .overlay(
      bytes, networkID: networkID ?? SwarmOverlay.mainnet,
      nonce: nonce ?? [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount))
  }

  /// A PeerID or DID target at a template's paths (nil without them), which SLIP-0010 derives
  /// through hardened steps only.
  private static func ed25519(
    _ paths: [DerivationPath]?,
    _ target: ([DerivationPath]) throws(KeyDerivationError) -> RecoveryTarget
  ) throws(GivenTargetError) -> RecoveryTarget? {
    guard let paths else { return nil }
    do {
      return try target(paths)
    } catch {
      throw .ed25519Path(error)
    }
  }
}

/// Why the targets given cannot be searched for. Each names what is wrong, never the text.
package enum GivenTargetError: Error, Sendable, CustomStringConvertible {
  /// A path template was given with no target, or with several (each has its own curve).
  case templateNeedsOneTarget
  /// A path template was given with a number of accounts: it names the paths itself.
  case templateAndAccounts
  /// The path template is not one.
  case template(RecoveryError)
  case address(AddressError)
  case peerID(Libp2pError)
  case did(RadicleIdentityError)
  /// A PeerID's or DID's key cannot be derived at a template's path (a step not hardened).
  case ed25519Path(KeyDerivationError)
  /// The overlay is not 64 hex digits (32 bytes).
  case overlay
  /// A network id or an overlay nonce was given without an overlay.
  case overlayParametersWithoutOverlay

  package var description: String {
    switch self {
    case .templateNeedsOneTarget:
      "a path template applies to one target: an address, a PeerID or a DID"
    case .templateAndAccounts:
      "a path template names the paths itself: give it or a number of accounts, not both"
    case .template(let error): "the path template: \(error)"
    case .address(let error): "the address: \(error)"
    case .peerID(let error): "the PeerID: \(error)"
    case .did(let error): "the DID: \(error)"
    case .ed25519Path(let error): "the path template: \(error)"
    case .overlay: "an overlay is 64 hex digits (32 bytes)"
    case .overlayParametersWithoutOverlay:
      "a network id or an overlay nonce applies only with an overlay"
    }
  }
}

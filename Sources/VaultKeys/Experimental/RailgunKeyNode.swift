import CryptoPrimitives

/// A node of Railgun's BabyJubJub key tree: SLIP-0010's hardened-only HMAC-SHA512 chain, with
/// the master node keyed "babyjubjub seed" instead of "ed25519 seed". The left half of each
/// node is the private key (a BabyJubJub scalar seed); no curve arithmetic enters the chain.
///
/// Desktop Freedom derives its experimental Railgun keys this way (solardev-xyz/freedom-browser
/// `src/main/identity/privacy-keys.js` and `railgun-credential-host.js`, matching the Railgun
/// engine's `key-derivation/bip32.ts`). The public keys need BabyJubJub point arithmetic, which
/// no vetted library here offers, so only the private keys are derived.
public struct RailgunKeyNode: Sendable, CustomStringConvertible {
  /// The seed length desktop accepts: a BIP-39 seed.
  public static let seedByteCount = 64
  private static let masterHMACKey = Array("babyjubjub seed".utf8)

  /// The node's 32-byte private key (the left half of its HMAC-SHA512 output).
  public let privateKey: SecureBytes
  /// The node's 32-byte chain code (the right half).
  public let chainCode: SecureBytes
  /// The number of derivation steps from the master node.
  public let depth: Int

  private init(privateKey: SecureBytes, chainCode: SecureBytes, depth: Int) {
    self.privateKey = privateKey
    self.chainCode = chainCode
    self.depth = depth
  }

  /// The master node of a 64-byte BIP-39 seed: HMAC-SHA512 keyed with "babyjubjub seed".
  public init(seed: SecureBytes) throws(ExperimentalKeyError) {
    guard seed.count == Self.seedByteCount else { throw .invalidSeedLength(seed.count) }
    let hmac = HMACSHA512.authenticate(key: Self.masterHMACKey, message: seed)
    self.init(
      privateKey: hmac[0..<ChildDerivation.halfByteCount], chainCode: hmac.rightHalf, depth: 0)
  }

  /// The descendant at `path`; every component must be hardened, as in SLIP-0010 for Ed25519:
  /// `I = HMAC-SHA512(chainCode, 0x00 ‖ key ‖ ser32(index + 2^31))`, key = `IL`, chain code = `IR`.
  public func derive(_ path: DerivationPath) throws(ExperimentalKeyError) -> RailgunKeyNode {
    if let offset = path.components.firstIndex(where: { !$0.isHardened }) {
      throw .nonHardened(position: offset + 1, path: path)
    }
    guard !path.components.isEmpty else { return self }
    // The body throws nothing, so neither does the scratch helper.
    return try! ChildDerivation.withScratch { message in
      let (key, code) = message.hardenedChain(
        key: SecureBytesSlice(privateKey), chainCode: SecureBytesSlice(chainCode), path.components)
      return RailgunKeyNode(
        privateKey: key.copied, chainCode: code.copied, depth: depth + path.components.count)
    }
  }

  /// The position in the tree, never the key.
  public var description: String { "RailgunKeyNode(depth: \(depth), redacted)" }
}

import CryptoPrimitives

/// The root key of a Railgun account's encrypted storage in one desktop Freedom profile:
/// HMAC-SHA256 keyed with the BIP-39 seed over the label "Freedom Railgun account storage v1",
/// a zero byte, and the JSON array `[profileId, accountIndex, chainId, deployment]`, where
/// profileId is the hex SHA-256 of the JSON array `[profile id, userData directory]`
/// (solardev-xyz/freedom-browser `src/main/identity/railgun-credential-host.js`). Both JSON texts
/// are JavaScript's `JSON.stringify`: no whitespace, strings escaped as RFC 8259 requires.
public enum RailgunStorageRoot {
  /// The chain desktop's Railgun accounts live on: Sepolia.
  public static let chainID: UInt64 = 11_155_111
  /// The Railgun deployment desktop uses.
  public static let deployment = "sepolia"
  private static let label = Array("Freedom Railgun account storage v1".utf8) + [0]

  /// The hex SHA-256 of `JSON.stringify([id, userDataDirectory])`: desktop's privacy-context
  /// profile id. `userDataDirectory` is the profile's directory exactly as desktop names it
  /// (an absolute path, no trailing slash).
  public static func profileID(id: String, userDataDirectory: String) -> String {
    let text = JSONValue.array([.string(id), .string(userDataDirectory)]).compact
    return Hex.encode(SHA256.hash(Array(text.utf8)))
  }

  /// The 32-byte storage root of account `accountIndex` (0 to 65535) in the profile whose
  /// privacy-context id is `profileID`.
  public static func root(
    seed: SecureBytes, profileID: String, accountIndex: UInt32
  ) throws(ExperimentalKeyError) -> SecureBytes {
    guard seed.count == RailgunKeyNode.seedByteCount else {
      throw .invalidSeedLength(seed.count)
    }
    try ExperimentalAccount.check(accountIndex)
    let binding = JSONValue.array([
      .string(profileID), .number(UInt64(accountIndex)), .number(chainID), .string(deployment),
    ]).compact
    return HMACSHA256.authenticate(key: seed, message: label + Array(binding.utf8))
  }
}

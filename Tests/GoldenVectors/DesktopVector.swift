import Testing

/// One vector of Vectors/freedom-desktop.json: desktop Freedom's golden values for a published
/// test mnemonic. Fields a vector does not publish are nil.
struct DesktopVector: Decodable, Sendable, CustomTestStringConvertible {
  let id: String
  let mnemonic: String
  let passphrase: String
  let seed: String
  let walletAddress: String?
  let swarmAddress: String?
  let swarmPrivateKey: String?
  let swarmOverlay: String?
  let ipfsPrivateKey: String?
  let ipfsPublicKey: String?
  let ipfsPrivKey: String?
  let ipfsPeerId: String?
  let radicleDid: String?
  let radicleSshFingerprint: String?
  var testDescription: String { id }

  /// Every vector of the file.
  static func all() throws -> [DesktopVector] {
    try VectorFile<DesktopVector>.load("freedom-desktop").vectors
  }
}

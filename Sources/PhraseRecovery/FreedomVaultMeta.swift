import VaultKeys

/// Desktop Freedom's `vault-meta.json`: the public addresses it keeps beside the encrypted
/// vault so it can show them while locked. Only what recovery can match is read.
package struct FreedomVaultMeta: Sendable {
  /// `addresses.userWallet`: m/44'/60'/0'/0/0.
  package let userWallet: EthereumAddress?
  /// `addresses.beeWallet`: the Swarm wallet, m/44'/60'/0'/0/1.
  package let beeWallet: EthereumAddress?
  /// `derivedWallets` of type `mnemonic` (or of no type, as older versions wrote them): the
  /// wallet index and its address, m/44'/60'/index'/0/0.
  package let derivedWallets: [(index: UInt32, address: EthereumAddress)]

  /// The targets the file names.
  package var targets: [RecoveryTarget] {
    var targets: [RecoveryTarget] = []
    if let userWallet { targets.append(.address(userWallet, of: .wallet(0))) }
    if let beeWallet { targets.append(.address(beeWallet, of: .swarm)) }
    for wallet in derivedWallets where wallet.address != userWallet || wallet.index != 0 {
      targets.append(.address(wallet.address, of: .wallet(wallet.index)))
    }
    return targets
  }

  /// Reads the file's bytes.
  package init(json: [UInt8]) throws(FreedomVaultMetaError) {
    let parsed:
      Result<
        (EthereumAddress?, EthereumAddress?, [(UInt32, EthereumAddress)]), FreedomVaultMetaError
      > =
        json.withUnsafeBytes { raw in
          do throws(FreedomVaultMetaError) {
            return .success(try Self.parse(raw))
          } catch {
            return .failure(error)
          }
        }
    let (user, bee, derived) = try parsed.get()
    userWallet = user
    beeWallet = bee
    derivedWallets = derived.map { (index: $0.0, address: $0.1) }
  }

  private static func parse(_ raw: UnsafeRawBufferPointer) throws(FreedomVaultMetaError) -> (
    EthereumAddress?, EthereumAddress?, [(UInt32, EthereumAddress)]
  ) {
    let root: JSONNode
    do {
      root = try JSONText.parse(raw)
    } catch {
      throw .malformed(error.description)
    }
    guard case .object = root.kind else { throw .malformed("the top level is not an object") }
    func address(_ node: JSONNode, _ name: String) throws(FreedomVaultMetaError) -> EthereumAddress
    {
      guard JSONText.isString(node),
        let address = try? EthereumAddress(JSONText.string(node, in: raw))
      else { throw .malformed("\(name) is not an Ethereum address") }
      return address
    }
    var user: EthereumAddress?
    var bee: EthereumAddress?
    if let addresses = root.members(named: "addresses").first?.value {
      if let node = addresses.members(named: "userWallet").first?.value {
        user = try address(node, "addresses.userWallet")
      }
      if let node = addresses.members(named: "beeWallet").first?.value {
        bee = try address(node, "addresses.beeWallet")
      }
    }
    var derived: [(UInt32, EthereumAddress)] = []
    if let wallets = root.members(named: "derivedWallets").first?.value {
      guard case .array(let records) = wallets.kind else {
        throw .malformed("derivedWallets is not an array")
      }
      for (offset, record) in records.enumerated() {
        let name = "derivedWallets[\(offset)]"
        if let type = record.members(named: "type").first?.value {
          guard JSONText.isString(type) else { throw .malformed("\(name).type is not a string") }
          // Hardware, Safe and watch-only wallets have no key in the mnemonic.
          guard JSONText.string(type, in: raw) == "mnemonic" else { continue }
        }
        guard let indexNode = record.members(named: "index").first?.value,
          let index = JSONText.unsignedInteger(indexNode, in: raw), index < 1 << 31
        else { throw .malformed("\(name).index is not a wallet index") }
        guard let addressNode = record.members(named: "address").first?.value else { continue }
        derived.append((UInt32(index), try address(addressNode, "\(name).address")))
      }
    }
    guard user != nil || bee != nil || !derived.isEmpty else { throw .noAddresses }
    return (user, bee, derived)
  }
}

/// Why a `vault-meta.json` gives no target.
package enum FreedomVaultMetaError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not the JSON desktop Freedom writes.
  case malformed(String)
  /// It names no address of the mnemonic.
  case noAddresses

  package var description: String {
    switch self {
    case .malformed(let reason): "it is not desktop Freedom's vault metadata: \(reason)"
    case .noAddresses:
      "it holds no address of the mnemonic (addresses.userWallet, addresses.beeWallet or "
        + "derivedWallets)"
    }
  }
}

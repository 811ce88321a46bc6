import VaultKeys

/// Writing `vault-meta.json` again for the mnemonic it describes, as when the vault is written
/// again under a new password (the old one forgotten): desktop's extra wallets, Ledger, phone
/// and Safe accounts (a Safe's owners, threshold and salt nonce cannot be rebuilt from the
/// mnemonic), names, `activeWalletIndex` and every member this tool does not know are kept
/// byte for byte; only what no longer holds is changed.
extension DesktopVaultMeta {
  /// The file written again, and what was changed in it.
  package struct Rewrite: Sendable, Equatable {
    /// The new file: the old one's bytes, with only `changes` edited.
    package let json: [UInt8]
    /// The members changed or added, as paths (`userKnowsPassword`, `addresses.beeWallet`,
    /// `derivedWallets[2].address`); empty when the file already holds.
    package let changes: [String]
  }

  /// The file for `profile`'s mnemonic, its vault protected by a password the user gave:
  /// `userKnowsPassword` false becomes true (desktop would look for a Quick Setup password in
  /// the OS keyring), a missing `addresses` member or address is added, a mnemonic wallet's
  /// stored address that is not the one derived at its index is replaced by it; every other
  /// byte stays. Nil when the file is another mnemonic's: its `userWallet` or `beeWallet` names
  /// another address, or it names neither and `vaultOpened` (the vault opened to this
  /// mnemonic) does not say whose it is.
  package func keepingMembers(for profile: FreedomProfile, vaultOpened: Bool) throws -> Rewrite? {
    let user = userWalletAddress.map { (try? EthereumAddress($0)) == profile.wallet.address }
    let bee = beeWalletAddress.map { (try? EthereumAddress($0)) == profile.swarm.address }
    guard user != false, bee != false, user != nil || bee != nil || vaultOpened else {
      return nil
    }
    // The wallets' own addresses first: deriving may throw, reading the file again may not.
    var walletAddresses: [Int: EthereumAddress] = [:]
    for (offset, wallet) in (derivedWallets ?? []).enumerated() where wallet.isDerivable {
      guard let stored = wallet.address else { continue }
      let derived = try profile.wallet(index: UInt32(wallet.index)).address
      if (try? EthereumAddress(stored)) != derived { walletAddresses[offset] = derived }
    }
    let edits = bytes.withUnsafeBytes { raw in
      Self.edits(raw, profile: profile, walletAddresses: walletAddresses)
    }
    var json = bytes
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      json.replaceSubrange(edit.range, with: edit.text)
    }
    return Rewrite(json: json, changes: edits.map(\.member))
  }

  /// One change: the bytes of `range` replaced by `text`, which changes `member`.
  private struct Edit {
    let range: Range<Int>
    let text: [UInt8]
    let member: String
  }

  /// The changes to the file read in `raw` (which `init(json:)` accepted).
  private static func edits(
    _ raw: UnsafeRawBufferPointer, profile: FreedomProfile, walletAddresses: [Int: EthereumAddress]
  ) -> [Edit] {
    guard let root = try? JSONText.parse(raw, duplicates: .kept) else { return [] }
    var edits: [Edit] = []
    if let member = root.lastMember(named: "userKnowsPassword"),
      case .bool(false) = member.value.kind
    {
      edits.append(Edit(range: member.value.range, text: Array("true".utf8), member: member.name))
    }
    let addresses: [(String, EthereumAddress)] = [
      ("userWallet", profile.wallet.address), ("beeWallet", profile.swarm.address),
    ]
    switch root.lastMember(named: "addresses") {
    case let member? where member.value.isObject:
      for (name, address) in addresses {
        let value = JSONValue.string(address.checksummed)
        if let edit = setting(name, value, in: member.value, owner: member, raw) {
          edits.append(Edit(range: edit.range, text: edit.text, member: "addresses." + name))
        }
      }
    default:
      var object: JSONObject = [:]
      for (name, address) in addresses { object.append(name, .string(address.checksummed)) }
      if let edit = setting("addresses", .object(object), in: root, owner: nil, raw) {
        edits.append(Edit(range: edit.range, text: edit.text, member: "addresses"))
      }
    }
    if let list = root.lastMember(named: "derivedWallets"),
      case .array(let entries) = list.value.kind
    {
      for (offset, address) in walletAddresses where offset < entries.count {
        guard let member = entries[offset].lastMember(named: "address") else { continue }
        edits.append(
          Edit(
            range: member.value.range, text: Array(JSONValue.quoted(address.checksummed).utf8),
            member: "derivedWallets[\(offset)].address"))
      }
    }
    return edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
  }

  /// The edit that gives `object` the member `name` with `value` when it lacks one or holds
  /// `null` (nil when it holds something else): the value replaced, or the member added after
  /// the last one on a line of its own, indented as its neighbours (`owner`: the member whose
  /// value `object` is, for an empty object's indentation).
  private static func setting(
    _ name: String, _ value: JSONValue, in object: JSONNode, owner: JSONMember?,
    _ raw: UnsafeRawBufferPointer
  ) -> (range: Range<Int>, text: [UInt8])? {
    if let member = object.lastMember(named: name) {
      guard case .null = member.value.kind else { return nil }
      let indent = JSONText.indentation(before: member.nameRange.lowerBound, in: raw)
      return (member.value.range, rendered(value, indent))
    }
    let pair = { (indent: [UInt8]) in
      Array(JSONValue.quoted(name).utf8) + Array(": ".utf8) + rendered(value, indent)
    }
    if case .object(let members) = object.kind, let last = members.last {
      let indent = JSONText.indentation(before: last.nameRange.lowerBound, in: raw)
      let end = last.value.range.upperBound
      return (end..<end, [UInt8(ascii: ",")] + indent + pair(indent))
    }
    // An empty object is written out one level deeper than its owner's line.
    let outer =
      owner.map { JSONText.indentation(before: $0.nameRange.lowerBound, in: raw) }
      ?? (raw.contains(0x0A) ? [0x0A] : [0x20])
    let multiLine = outer.first == 0x0A
    let inner = multiLine ? outer + [0x20, 0x20] : [0x20]
    let close = multiLine ? outer : [0x20]
    return (object.range, [UInt8(ascii: "{")] + inner + pair(inner) + close + [0x7D])
  }

  /// `value` as JSON text on a line indented by `indent` (a line break and blanks), or on one
  /// line when the file is not pretty-printed there (`indent` a single space).
  private static func rendered(_ value: JSONValue, _ indent: [UInt8]) -> [UInt8] {
    guard indent.first == 0x0A else { return Array(value.compact.utf8) }
    return Array(value.rendered(indent: String(decoding: indent.dropFirst(), as: UTF8.self)).utf8)
  }
}

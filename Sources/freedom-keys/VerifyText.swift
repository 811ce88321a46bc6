import CommandLineKit
import FreedomNodes
import VaultKeys

/// The CLI's wording of `verify`'s findings: one line per node directory, or a row per part of
/// a desktop installation, and the JSON of both.
enum VerifyText {
  // MARK: - Node directories (--bee-dir, --antd-dir, …)

  /// Whether `finding` lists a backup a directory holds (not a check of a node).
  static func isBackup(_ finding: NodeFinding) -> Bool {
    if case .backup? = finding.reason { return true }
    return false
  }

  /// "match     0x…", "MISMATCH  expected …, found …", "not present (path)".
  static func line(_ finding: NodeFinding) -> String {
    let expected = finding.expected ?? ""
    switch finding.status {
    case .match:
      let how =
        switch finding.reason {
        case .decryptedWithGivenPassword?: " (decrypted with the password)"
        case .addressFieldOnly?:
          " (address field only, unauthenticated; --password-file decrypts the key)"
        case .decryptedWithNodePassword(let source)?: " (decrypted with \(password(source)))"
        case .addressFieldOnlyNoNodePassword?:
          " (address field only, unauthenticated: \(Antd.configFile) has no password)"
        case .addressFieldOnlyNoNodeConfig?:
          " (address field only, unauthenticated: there is no \(Antd.configFile))"
        case .antIdentity(.derivedFromKey, let overlay, _)?: " (\(restoredFromKey(overlay)))"
        default: ""
        }
      return "match     \(expected)\(how)"
    case .mismatch:
      var how = ""
      switch finding.reason {
      case .addressFieldOnly?, .addressFieldOnlyNoNodePassword?, .addressFieldOnlyNoNodeConfig?:
        how = " (address field only, unauthenticated)"
      case .nodePasswordDoesNotOpen(let source)?:
        how = " (\(password(source)) does not open \(Antd.keystoreFile): antd would not start)"
      case .antdRefusesKeystore(let refusal)?: how = " (antd refuses it: \(refusal))"
      default: break
      }
      return "MISMATCH  expected \(expected), found \(found(finding) ?? "nothing")\(how)"
    case .absent:
      return "not present (\(finding.path))"
    case .note:
      return "note      \(detail(finding))"
    }
  }

  /// The node's JSON object, as `verify --json` prints it.
  static func json(_ finding: NodeFinding) -> JSONObject {
    var object: JSONObject = [
      "status": .string(finding.status.rawValue), "expected": .string(finding.expected ?? ""),
    ]
    if let found = found(finding) { object.append("found", .string(found)) }
    object.append("path", .string(finding.path))
    if let authenticated = finding.authenticated {
      object.append("authenticated", .bool(authenticated))
    }
    if case .antIdentity(let nonce, let overlay, let readers)? = finding.reason {
      object.append("nonce", .string(name(nonce)))
      object.append("overlay", .string(overlay))
      object.append("acceptedBy", .array(readers.map { .string($0.rawValue) }))
    }
    if !finding.problems.isEmpty {
      object.append("problems", .array(finding.problems.map { .string($0) }))
    }
    return object
  }

  /// What was found, as the report names it (a key with what is wrong beside it).
  static func found(_ finding: NodeFinding) -> String? {
    switch finding.reason {
    case .radicleKeyPairDisagrees(let key, let line)?:
      return "\(key ?? "no key") in \(Radicle.privateKeyFile), \(line ?? "no key") in "
        + "\(Radicle.publicKeyFile)"
    case .kuboKey(.noPrivateKey)?: return "\(finding.found ?? "no PeerID") without PrivKey"
    case .kuboKey(.unreadablePrivateKey)?:
      return "\(finding.found ?? "no PeerID") with an unreadable PrivKey"
    case .kuboKey(.otherPrivateKey(let peerID))?:
      return "\(finding.found ?? "no PeerID") with the PrivKey of \(peerID)"
    default:
      guard let found = finding.found else { return nil }
      return finding.problems.isEmpty
        ? found : found + " — " + finding.problems.joined(separator: "; ")
    }
  }

  /// Why a set of findings fails, or nil when none does (absent fails for a node directory).
  static func failed(_ findings: [NodeFinding], absentFails: Bool) -> CLIError? {
    let failed = findings.filter {
      $0.status == .mismatch || (absentFails && $0.status == .absent)
    }.map(\.check)
    guard !failed.isEmpty else { return nil }
    return .mismatch(
      "\(failed.joined(separator: ", ")) \(failed.count == 1 ? "does" : "do") not hold the "
        + "mnemonic's identity")
  }

  /// Whether a BIP-39 passphrase could explain `findings`: a key of another identity was
  /// found, and the mnemonic was checked without a passphrase (another passphrase derives
  /// other keys from the same words).
  static func passphraseMayExplain(_ findings: [NodeFinding], passphraseGiven: Bool) -> Bool {
    !passphraseGiven
      && findings.contains {
        $0.status == .mismatch && $0.found != nil && $0.found != $0.expected
      }
  }

  /// The hint's line.
  static let passphraseHint =
    "the keys found are of another identity; if this mnemonic was used with a BIP-39 "
    + "passphrase, give it with --\(MnemonicOptions.passphraseFile.name) PATH (- to type it)"

  // MARK: - A desktop installation (--freedom-dir)

  /// The detail column of a row.
  static func detail(_ finding: NodeFinding) -> String {
    let expected = finding.expected ?? ""
    let found = found(finding) ?? "nothing"
    let compared = finding.status == .match ? expected : "expected \(expected), found \(found)"
    if finding.status == .absent {
      guard case .beeDataLeftOver = finding.reason else { return "" }
    }
    switch finding.reason {
    case nil: return finding.found == nil && finding.expected == nil ? "" : compared
    case .decryptedWithGivenPassword: return "\(found) (decrypted with the password)"
    case .addressFieldOnly: return "\(found) (address field only, unauthenticated)"
    case .decryptedWithNodePassword(let source):
      return finding.status == .match ? "\(found) (decrypted with \(password(source)))" : compared
    case .addressFieldOnlyNoNodePassword:
      return "\(finding.found ?? "no address") (address field only, unauthenticated: "
        + "\(Antd.configFile) has no password)"
    case .addressFieldOnlyNoNodeConfig:
      return "\(finding.found ?? "no address") (address field only, unauthenticated: there is "
        + "no \(Antd.configFile))"
    case .nodePasswordDoesNotOpen(let source):
      return "\(password(source)) does not open \(Antd.keystoreFile): antd would not start "
        + "(export antd --data-dir \(parent(finding.path)) rewrites it)"
    case .antdRefusesKeystore(let refusal):
      return "\(finding.found ?? "the keystore"): antd refuses it, \(refusal) "
        + "(export antd --data-dir \(parent(finding.path)) rewrites it)"
    case .radicleKeyPairDisagrees, .kuboKey: return compared
    case .backup(let directory):
      return "kept aside by an earlier change of \(directory) (\(finding.path))"
    case .vaultHoldsMnemonic: return "holds the mnemonic"
    case .vaultHoldsOtherMnemonic: return "holds another mnemonic"
    case .vaultIsSource:
      return "opened with the password; the mnemonic checked below was read from it"
    case .vaultNotOpened: return "present, not opened (give --vault-password-file to check it)"
    case .vaultUnreadable(let reason): return "not desktop Freedom's vault: \(reason)"
    case .vaultMetaLacks(let fields):
      return "lacks what desktop writes in every \(DesktopVaultMeta.fileName): "
        + fields.joined(separator: ", ")
    case .vaultMetaUnreadable(let reason): return reason
    case .deviceAccount(let type, let name, let address):
      return "\(type) account\(label(name)), \(address ?? "no address"): not derivable from the "
        + "mnemonic (its key stays on its device)"
    case .walletWithoutAddress(let derived, let name):
      return "\(derived)\(label(name)) (no address stored to compare)"
    case .antdOwnIdentityIgnored(let key):
      return "antd's own identity (\(key)); antd ignores it while \(Antd.keystoreFile) exists, "
        + "and desktop removes it when it injects the key"
    case .antdOwnIdentityUsed(let key):
      return "antd uses it (no \(Antd.keystoreFile)): \(key)"
        + (finding.problems.isEmpty ? "" : " — " + finding.problems.joined(separator: "; "))
    case .beeDataLeftOver(let pending, let keystore):
      var inner = finding
      inner.reason = keystore
      let innerDetail = finding.status == .absent ? "" : detail(inner)
      return (innerDetail.isEmpty ? "present, no \(Bee.keystoreFile)" : innerDetail)
        + (pending
          ? "; the migration is pending: desktop moves bee-data to ant-data at its next start"
          : "; left over from before the migration to antd (desktop no longer reads it)")
    case .radicleAlias(let alias):
      return alias.map { "\"\($0)\"" }
        ?? "none set (desktop sets \(DesktopUserData.defaultRadicleAlias))"
    case .antIdentity(let nonce, let overlay, _):
      return finding.status == .match && nonce == .derivedFromKey
        ? "\(expected) (\(restoredFromKey(overlay)))" : compared
    case .desktop(let fact): return DesktopText.detail(fact, finding)
    case .oldKuboRepository(let inner):
      var kubo = finding
      kubo.reason = inner
      let compared =
        finding.status == .match
        ? expected : "expected \(expected), found \(Self.found(kubo) ?? "nothing")"
      return compared + " (an old kubo repository: today's desktop IPFS node is ephemeral)"
    }
  }

  /// The rows as text: name, status, detail (the path for what is absent).
  static func rows(_ findings: [NodeFinding]) -> String {
    let width = findings.map(\.check.count).max() ?? 0
    return findings.map { finding in
      let status =
        switch finding.status {
        case .match: "match   "
        case .mismatch: "MISMATCH"
        case .absent: "absent  "
        case .note: "note    "
        }
      let text = finding.status == .absent ? "(\(finding.path))" : detail(finding)
      return finding.check + String(repeating: " ", count: width - finding.check.count + 2)
        + status + "  " + text + "\n"
    }.joined()
  }

  /// The rows as JSON, with the installation and an overall `ok`.
  static func rowsJSON(_ findings: [NodeFinding], userData: String) -> JSONValue {
    var object: JSONObject = ["userData": .string(userData)]
    var list: [JSONValue] = []
    for finding in findings {
      var item: JSONObject = [
        "check": .string(finding.check), "status": .string(finding.status.rawValue),
        "path": .string(finding.path),
      ]
      let text = detail(finding)
      if !text.isEmpty { item.append("detail", .string(text)) }
      if let authenticated = finding.authenticated {
        item.append("authenticated", .bool(authenticated))
      }
      list.append(.object(item))
    }
    object.append("checks", .array(list))
    object.append("ok", .bool(!findings.contains { $0.status == .mismatch }))
    return .object(object)
  }

  // MARK: - Helpers

  /// An Ant identity of the mnemonic's key with the nonce Ant's library derives.
  private static func restoredFromKey(_ overlay: String) -> String {
    "restored from the key as Ant's library does: overlay \(overlay), not the zero-nonce one"
  }

  /// The JSON name of an Ant identity's nonce.
  private static func name(_ nonce: AntIdentity.NonceOrigin) -> String {
    switch nonce {
    case .zero: "zero"
    case .derivedFromKey: "derivedFromKey"
    case .other: "other"
    }
  }

  private static func password(_ source: NodeFinding.AntdPasswordSource) -> String {
    switch source {
    case .config: "\(Antd.configFile)'s password"
    case .passwordFile(let file): "the password in \(file) (\(Antd.configFile)'s password-file)"
    }
  }

  private static func label(_ name: String?) -> String { name.map { " \"\($0)\"" } ?? "" }

  /// The node directory of a keystore path.
  private static func parent(_ keystorePath: String) -> String {
    let suffix = "/" + Antd.keystoreFile
    return keystorePath.hasSuffix(suffix)
      ? String(keystorePath.dropLast(suffix.count)) : keystorePath
  }
}

import VaultKeys
import Wording

/// How a finding words itself: one line for a node directory, the detail column of a desktop
/// installation's row, and what was found.
extension NodeFinding {
  /// Whether this lists a backup a directory holds (not a check of a node).
  package var isBackup: Bool {
    if case .backup? = reason { return true }
    return false
  }

  /// "match     0x…", "MISMATCH  expected …, found …", "not present (path)".
  package var line: NodeMessage {
    let expected = self.expected ?? ""
    switch status {
    case .match:
      let how: NodeMessage =
        switch reason {
        case .decryptedWithGivenPassword?: " (decrypted with the password)"
        case .addressFieldOnly?:
          " (address field only, unauthenticated; \(remedy: .passwordFile) decrypts the key)"
        case .decryptedWithNodePassword(let source)?: " (decrypted with \(source.name))"
        case .addressFieldOnlyNoNodePassword?:
          " (address field only, unauthenticated: \(Antd.configFile) has no password)"
        case .addressFieldOnlyNoNodeConfig?:
          " (address field only, unauthenticated: there is no \(Antd.configFile))"
        case .antIdentity(.derivedFromKey, let overlay, _)?:
          " (\(Self.restoredFromKey(overlay)))"
        default: ""
        }
      return "match     \(expected)\(how)"
    case .mismatch:
      var how = ""
      switch reason {
      case .addressFieldOnly?, .addressFieldOnlyNoNodePassword?, .addressFieldOnlyNoNodeConfig?:
        how = " (address field only, unauthenticated)"
      case .nodePasswordDoesNotOpen(let source)?:
        how = " (\(source.name) does not open \(Antd.keystoreFile): antd would not start)"
      case .antdRefusesKeystore(let refusal)?: how = " (antd refuses it: \(refusal))"
      default: break
      }
      return "MISMATCH  expected \(expected), found \(foundText ?? "nothing")\(how)"
    case .absent:
      return "not present (\(path))"
    case .note:
      return "note      \(detail)"
    }
  }

  /// What was found, as the report names it (a key with what is wrong beside it).
  package var foundText: String? {
    switch reason {
    case .radicleKeyPairDisagrees(let key, let line)?:
      return "\(key ?? "no key") in \(Radicle.privateKeyFile), \(line ?? "no key") in "
        + "\(Radicle.publicKeyFile)"
    case .kuboKey(.noPrivateKey)?: return "\(found ?? "no PeerID") without PrivKey"
    case .kuboKey(.unreadablePrivateKey)?:
      return "\(found ?? "no PeerID") with an unreadable PrivKey"
    case .kuboKey(.otherPrivateKey(let peerID))?:
      return "\(found ?? "no PeerID") with the PrivKey of \(peerID)"
    default:
      guard let found else { return nil }
      return problems.isEmpty ? found : found + " — " + problems.joined(separator: "; ")
    }
  }

  /// The detail column of a desktop installation's row.
  package var detail: NodeMessage {
    let expected = self.expected ?? ""
    let foundText = self.foundText ?? "nothing"
    let compared = status == .match ? expected : "expected \(expected), found \(foundText)"
    if status == .absent {
      guard case .beeDataLeftOver = reason else { return "" }
    }
    switch reason {
    case nil: return found == nil && self.expected == nil ? "" : "\(compared)"
    case .decryptedWithGivenPassword: return "\(foundText) (decrypted with the password)"
    case .addressFieldOnly: return "\(foundText) (address field only, unauthenticated)"
    case .decryptedWithNodePassword(let source):
      return status == .match ? "\(foundText) (decrypted with \(source.name))" : "\(compared)"
    case .addressFieldOnlyNoNodePassword:
      return "\(found ?? "no address") (address field only, unauthenticated: "
        + "\(Antd.configFile) has no password)"
    case .addressFieldOnlyNoNodeConfig:
      return "\(found ?? "no address") (address field only, unauthenticated: there is "
        + "no \(Antd.configFile))"
    case .nodePasswordDoesNotOpen(let source):
      return "\(source.name) does not open \(Antd.keystoreFile): antd would not start "
        + "(\(remedy: .exportAntd(Self.parent(path))) rewrites it)"
    case .antdRefusesKeystore(let refusal):
      return "\(found ?? "the keystore"): antd refuses it, \(refusal) "
        + "(\(remedy: .exportAntd(Self.parent(path))) rewrites it)"
    case .radicleKeyPairDisagrees, .kuboKey: return "\(compared)"
    case .backup(let directory):
      return "kept aside by an earlier change of \(directory) (\(path))"
    case .vaultHoldsMnemonic: return "holds the mnemonic"
    case .vaultHoldsOtherMnemonic: return "holds another mnemonic"
    case .vaultIsSource:
      return "opened with the password; the mnemonic checked below was read from it"
    case .vaultNotOpened:
      return "present, not opened (give \(remedy: .vaultPasswordFile) to check it)"
    case .vaultUnreadable(let reason): return "not desktop Freedom's vault: \(reason)"
    case .vaultMetaLacks(let fields):
      return "lacks what desktop writes in every \(DesktopVaultMeta.fileName): "
        + fields.joined(separator: ", ")
    case .vaultMetaUnreadable(let reason): return "\(reason)"
    case .deviceAccount(let type, let name, let address):
      return "\(type) account\(Self.label(name)), \(address ?? "no address"): not derivable "
        + "from the mnemonic (its key stays on its device)"
    case .walletWithoutAddress(let derived, let name):
      return "\(derived)\(Self.label(name)) (no address stored to compare)"
    case .antdOwnIdentityIgnored(let key):
      return "antd's own identity (\(key)); antd ignores it while \(Antd.keystoreFile) "
        + "exists, and desktop removes it when it injects the key"
    case .antdOwnIdentityUsed(let key):
      return "antd uses it (no \(Antd.keystoreFile)): \(key)"
        + (problems.isEmpty ? "" : " — " + problems.joined(separator: "; "))
    case .beeDataLeftOver(let pending, let keystore):
      var inner = self
      inner.reason = keystore
      let innerDetail: NodeMessage = status == .absent ? "" : inner.detail
      return (innerDetail.isEmpty ? "present, no \(Bee.keystoreFile)" : innerDetail)
        + (pending
          ? "; the migration is pending: desktop moves bee-data to ant-data at its next start"
          : "; left over from before the migration to antd (desktop no longer reads it)")
    case .radicleAlias(let alias):
      let none = "none set (desktop sets \(DesktopUserData.defaultRadicleAlias))"
      return "\(alias.map { "\"\($0)\"" } ?? none)"
    case .antIdentity(let nonce, let overlay, _):
      return status == .match && nonce == .derivedFromKey
        ? "\(expected) (\(Self.restoredFromKey(overlay)))" : "\(compared)"
    case .desktop(let fact): return fact.detail(self)
    case .oldKuboRepository(let inner):
      var kubo = self
      kubo.reason = inner
      let compared =
        status == .match ? expected : "expected \(expected), found \(kubo.foundText ?? "nothing")"
      return "\(compared) (an old kubo repository: today's desktop IPFS node is ephemeral)"
    }
  }

  /// An Ant identity of the mnemonic's key with the nonce Ant's library derives.
  private static func restoredFromKey(_ overlay: String) -> String {
    "restored from the key as Ant's library does: overlay \(overlay), not the zero-nonce one"
  }

  private static func label(_ name: String?) -> String { name.map { " \"\($0)\"" } ?? "" }

  /// The node directory of a keystore path.
  private static func parent(_ keystorePath: String) -> String {
    let suffix = "/" + Antd.keystoreFile
    return keystorePath.hasSuffix(suffix)
      ? String(keystorePath.dropLast(suffix.count)) : keystorePath
  }
}

extension NodeFinding.AntdPasswordSource {
  /// The password antd reads, as findings name it.
  var name: String {
    switch self {
    case .config: "\(Antd.configFile)'s password"
    case .passwordFile(let file): "the password in \(file) (\(Antd.configFile)'s password-file)"
    }
  }
}

import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// MetaMask's vault: the extension's keyrings, sealed by @metamask/browser-passworder under the
/// wallet password (PBKDF2-HMAC-SHA256, 600,000 iterations in `keyMetadata`; 10,000 in vaults
/// written before it), as `KeyringController.vault` holds it.
///
/// Read in any of the shapes people copy it out in: the vault itself
/// (`{"data","iv","keyMetadata"?,"salt"}`), that JSON as a quoted string, the controller's state
/// (`{"KeyringController":{"vault":…}}`), or the extension storage around it
/// (`{"data":{"KeyringController":{"vault":…}}}`). The plaintext is the keyrings' JSON array;
/// the mnemonic is that of the first `"HD Key Tree"` keyring, stored as text by older versions
/// and as the array of its UTF-8 bytes by newer ones.
public struct MetaMaskVault: Sendable {
  /// The largest file accepted: the extension's whole storage can be a few MiB.
  public static let maxByteCount = 4 << 20
  /// The iteration count MetaMask writes today (browser-passworder's default).
  public static let currentIterations = 600_000
  /// The keyring type that holds a Secret Recovery Phrase.
  static let hdKeyringType = "HD Key Tree"

  package let sealed: BrowserPassworderVault

  /// The PBKDF2-HMAC-SHA256 iteration count.
  public var iterations: Int { sealed.iterations }

  /// Parses the vault out of `bytes` in any of the shapes above. Nothing secret is read here.
  public init(json bytes: some ContiguousBytes) throws(MetaMaskVaultError) {
    let json = bytes.withUnsafeBytes { [UInt8]($0) }
    guard json.count <= Self.maxByteCount else {
      throw .notAVault(reason: "the file is larger than \(Self.maxByteCount >> 20) MiB")
    }
    do throws(VaultFormatError) {
      sealed = try BrowserPassworderVault(try Self.vaultFields(json))
    } catch {
      throw MetaMaskVaultError(error)
    }
  }

  /// The sealed object, found through the wrappers it may be in (at most one of each, in order:
  /// storage, controller state, a JSON string).
  private static func vaultFields(_ json: [UInt8]) throws(VaultFormatError) -> VaultJSONFields {
    var bytes = json
    var node = try VaultJSONFields.parse(bytes, field: nil)
    var path: String?
    var unwrapped = false
    while true {
      switch node.kind {
      case .string where !unwrapped:
        // The vault as MetaMask stores it: a string holding the sealed object's JSON.
        bytes = bytes.withUnsafeBytes { Array(JSONText.string(node, in: $0).utf8) }
        node = try VaultJSONFields.parse(bytes, field: path)
        unwrapped = true
        continue
      case .object:
        let fields = VaultJSONFields(bytes: bytes, node: node, path: path)
        if let storage = fields.value("data"), storage.isObject, path == nil {
          node = storage
          path = "data"
          continue
        }
        if let controller = try fields.object("KeyringController") {
          guard let vault = controller.value("vault") else {
            throw .notAVault(reason: "missing '\(controller.name("vault"))'")
          }
          node = vault
          path = controller.name("vault")
          continue
        }
        guard fields.value("data") != nil || fields.value("salt") != nil else {
          throw .notAVault(
            reason: "\(path.map { "'\($0)'" } ?? "the content") holds neither a vault "
              + "('data', 'iv', 'salt') nor 'KeyringController'")
        }
        return fields
      default:
        throw .notAVault(
          reason: "\(path.map { "'\($0)'" } ?? "the content") is \(node.typeName), not a vault")
      }
    }
  }

  /// A rough duration of `decryptMnemonic`, from the iteration count alone.
  public var estimatedDecryptionSeconds: Double { sealed.estimatedOpeningSeconds }

  /// The Secret Recovery Phrase (UTF-8, as MetaMask stored it) of the vault's first HD keyring,
  /// opened with `password`, the UTF-8 bytes of the wallet password as typed.
  public func decryptMnemonic(password: SecureBytes) throws(MetaMaskVaultError) -> SecureBytes {
    let plaintext = try sealed.open(
      password: password, incorrect: .incorrectPassword, failed: MetaMaskVaultError.decryptionFailed
    )
    guard let mnemonic = Keyrings.firstMnemonic(in: plaintext) else { throw .noMnemonic }
    return mnemonic
  }
}

/// Reads the first HD keyring's mnemonic out of the decrypted keyrings
/// (`[{"type":"HD Key Tree","data":{"mnemonic":…}}, …]`) with the package's strict JSON reader,
/// straight into a `SecureBytes`: the secret never becomes a `String`.
private enum Keyrings {
  static func firstMnemonic(in plaintext: SecureBytes) -> SecureBytes? {
    plaintext.withUnsafeBytes { bytes -> SecureBytes? in
      guard let root = try? JSONText.parse(bytes), case .array(let keyrings) = root.kind else {
        return nil
      }
      for keyring in keyrings {
        guard let type = keyring.member(exactly: "type")?.value, type.isString,
          JSONText.string(type, in: bytes) == MetaMaskVault.hdKeyringType,
          let mnemonic = keyring.member(exactly: "data")?.value.member(exactly: "mnemonic")
        else { continue }
        let phrase = Self.bytes(of: mnemonic.value, in: bytes)
        return (phrase?.count ?? 0) > 0 ? phrase : nil
      }
      return nil
    }
  }

  /// The mnemonic as text, as an array of its UTF-8 bytes, or as Node's serialised Buffer
  /// (`{"type":"Buffer","data":[…]}`).
  private static func bytes(of value: JSONNode, in bytes: UnsafeRawBufferPointer) -> SecureBytes? {
    switch value.kind {
    case .string:
      return JSONText.secureString(value, in: bytes)
    case .array(let elements):
      var octets: [JSONNode] = []
      for element in elements {
        guard let octet = JSONText.unsignedInteger(element, in: bytes), octet <= 0xFF else {
          return nil
        }
        octets.append(element)
      }
      return SecureBytes(count: octets.count) { out in
        for (index, element) in octets.enumerated() {
          out[index] = UInt8(JSONText.unsignedInteger(element, in: bytes)!)
        }
      }
    case .object:
      guard let data = value.member(exactly: "data")?.value,
        let type = value.member(exactly: "type")?.value, type.isString,
        JSONText.string(type, in: bytes) == "Buffer"
      else { return nil }
      return Self.bytes(of: data, in: bytes).flatMap { $0.count > 0 ? $0 : nil }
    default:
      return nil
    }
  }
}

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where desktop Freedom keeps its identities under one `userData` directory, as
/// `src/main/profile-paths.js`, `identity-manager.js`, `migrate-user-data.js` and
/// `profile-resolver.js` lay it out. Paths only: nothing here touches the disk.
///
/// - `userData` is Electron's `app.getPath('userData')` for the app named `Freedom`
///   (`~/.config/Freedom` on Linux, `$XDG_CONFIG_HOME/Freedom` when that is set;
///   `~/Library/Application Support/Freedom` on macOS; `%APPDATA%\Freedom` on Windows).
///   Before the rename the directory was `Freedom Browser`, which the app moves on first start.
///   A packaged build's default profile uses `userData` itself and keeps its profile catalog in
///   `profile-registry.json` there; each profile's metadata (`slot`, ports) is `profile.json`
///   in its directory. Development builds use `Freedom Dev/<checkout>/Profiles/<id>`.
/// - `ant-data/` is antd's data directory: `keys/swarm.key` (the injected Swarm wallet,
///   m/44'/60'/0'/0/1, a V3 keystore) and `config.yaml` (whose `password:` decrypts it;
///   ant-manager rewrites the file on every start and keeps only that password).
/// - `bee-data/` is the same for the bee node of older versions; on start, while
///   `bee-data/keys/swarm.key` exists and `ant-data/keys/swarm.key` does not, desktop moves
///   `bee-data` to `ant-data` (or carries `config.yaml`, `stamperstore`, `keys` over).
/// - `identity/` holds `identity-vault.json` (the encrypted mnemonic) and `vault-meta.json`.
/// - Radicle's home is `R/<slot>` under the app root for catalog profiles (a short path, for
///   the length limit of its control socket; `<userData>/R/0` for a packaged build's default
///   profile), copied there from `<userData>/radicle-data` when that has content, and
///   `<userData>/radicle-data` otherwise. The default alias is `FreedomBrowser`.
/// - `ipfs-data/` was the kubo repository of older versions; today's IPFS node uses ephemeral
///   identities and derives nothing.
/// Environment variables override single directories: `FREEDOM_ANT_DATA`, `FREEDOM_BEE_DATA`,
/// `FREEDOM_IDENTITY_DATA`, `FREEDOM_IPFS_DATA`, `FREEDOM_RADICLE_DATA`.
public struct DesktopUserData: Sendable, Equatable {
  /// The `userData` directory.
  public let root: String

  /// Desktop's default Radicle alias.
  public static let defaultRadicleAlias = "FreedomBrowser"
  /// The app's directory name under the platform's application-data directory.
  public static let appName = "Freedom"

  /// The layout under `root`.
  public init(root: String) { self.root = root }

  /// The default `userData` of a packaged Linux build: `$XDG_CONFIG_HOME/Freedom`, or
  /// `<home>/.config/Freedom` when `XDG_CONFIG_HOME` is unset or empty.
  public static func linuxDefault(home: String, xdgConfigHome: String?) -> DesktopUserData {
    let config = xdgConfigHome.flatMap { $0.isEmpty ? nil : $0 } ?? join(home, ".config")
    return DesktopUserData(root: join(config, appName))
  }

  /// antd's data directory.
  public var antData: String { Self.join(root, "ant-data") }
  /// antd's keystore, the Swarm wallet.
  public var antKeystore: String { Self.join(antData, "keys/swarm.key") }
  /// antd's config, whose `password:` decrypts the keystore.
  public var antConfig: String { Self.join(antData, "config.yaml") }
  /// The identity antd makes itself when it starts without a keystore.
  public var antSelfMadeIdentity: String { Self.join(antData, "identity.json") }
  /// The raw key file antd writes beside its self-made identity.
  public var antSelfMadeSigningKey: String { Self.join(antData, "signing.key") }
  /// The bee data directory of versions before antd.
  public var beeData: String { Self.join(root, "bee-data") }
  /// The identity directory.
  public var identity: String { Self.join(root, "identity") }
  /// The encrypted mnemonic.
  public var vault: String { Self.join(identity, "identity-vault.json") }
  /// The vault's public metadata.
  public var vaultMeta: String { Self.join(identity, DesktopVaultMeta.fileName) }
  /// The kubo repository of older versions.
  public var ipfsData: String { Self.join(root, "ipfs-data") }
  /// Radicle's home for a profile outside the catalog (and the source desktop copies from).
  public var radicleData: String { Self.join(root, "radicle-data") }
  /// The profile catalog a packaged build keeps in its app root.
  public var profileRegistry: String { Self.join(root, "profile-registry.json") }
  /// This profile's metadata (`slot`, ports).
  public var profileMetadata: String { Self.join(root, "profile.json") }

  /// Radicle's home for the catalog profile in `slot` when `root` is the app root (a packaged
  /// build's default profile).
  public func catalogRadicleHome(slot: Int) -> String {
    Self.join(root, Self.catalogDirectory + "/\(slot)")
  }

  /// The directory of the app root that holds every profile's Radicle home, one per slot.
  public static let catalogDirectory = "R"

  /// The `slot` of a `profile.json` as desktop reads it (`DesktopProfileMetadata`), or nil
  /// when desktop uses no slot (then Radicle's home is `radicle-data`) — and also when
  /// desktop could not read the file at all, which `DesktopProfileMetadata(json:)` refuses
  /// with its reason: prefer that where a refusal can be reported.
  public static func profileSlot(json: some ContiguousBytes) -> Int? {
    (try? DesktopProfileMetadata(json: json))?.slot
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}

/// A profile's `profile.json` as desktop Freedom reads it: `JSON.parse` of the file (a member
/// named twice: the last one wins), then `Number.isInteger(metadata.slot)` — so `2.0` and `2e0`
/// are the slot 2, a negative integer is a slot too (`R/-1`), and `2.5`, `"2"`, `null`, a
/// number too large for a double (`1e400`, which parses as Infinity) or a document that is not
/// an object mean no slot (profile-catalog.js `readProfileMetadata`, profile-paths.js
/// `getCatalogRadicleDataDir`). What desktop cannot read is refused, never guessed.
public struct DesktopProfileMetadata: Sendable, Equatable {
  /// The catalog slot (Radicle's home is `R/<slot>`), or nil when desktop uses none.
  public let slot: Int?

  /// Reads `profile.json`.
  public init(json: some ContiguousBytes) throws(DesktopProfileMetadataError) {
    let read: Result<Int?, DesktopProfileMetadataError> = json.withUnsafeBytes { bytes in
      let document: JSONNode
      do throws(JSONSyntaxError) {
        document = try JSONText.parse(bytes, duplicates: .kept)
      } catch {
        return .failure(.invalidJSON(error.description))
      }
      if case .null = document.kind { return .failure(.nullDocument) }
      guard let member = document.lastMember(named: "slot"), case .number = member.value.kind
      else { return .success(nil) }
      // JavaScript's number: the nearest double (Swift's parser rounds the same way).
      guard let value = Double(JSONText.text(member.value, in: bytes)), value.isFinite,
        value.rounded(.towardZero) == value
      else { return .success(nil) }
      // Beyond 2^53 − 1 desktop's String(slot) is no longer the integer's digits.
      guard abs(value) <= Self.maximumSafeInteger else { return .failure(.slotOutOfRange) }
      return .success(Int(value))
    }
    slot = try read.get()
  }

  /// JavaScript's `Number.MAX_SAFE_INTEGER`.
  static let maximumSafeInteger = Double((1 << 53) - 1)
}

/// Why desktop Freedom could not read a `profile.json`, so no slot can be taken from it.
public enum DesktopProfileMetadataError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Not JSON that `JSON.parse` reads (desktop fails to open the profile); the reason names it.
  case invalidJSON(String)
  /// The document is `null`, on which desktop's profile code fails.
  case nullDocument
  /// `slot` is an integer beyond ±(2^53 − 1), where desktop's path no longer spells it.
  case slotOutOfRange

  public var description: String {
    switch self {
    case .invalidJSON(let reason): "profile.json is not JSON desktop Freedom can read: \(reason)"
    case .nullDocument: "profile.json holds null, which desktop Freedom cannot read"
    case .slotOutOfRange:
      "profile.json's slot is too large for desktop Freedom's Radicle path; fix the slot"
    }
  }
}

import NodeFiles
import VaultKeys

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
package struct DesktopUserData: Sendable, Equatable {
  /// The `userData` directory.
  package let root: String

  /// Desktop's default Radicle alias.
  package static let defaultRadicleAlias = "FreedomBrowser"
  /// The app's directory name under the platform's application-data directory.
  package static let appName = "Freedom"

  /// The layout under `root`.
  package init(root: String) { self.root = root }

  /// The default `userData` of a packaged Linux build: `$XDG_CONFIG_HOME/Freedom`, or
  /// `<home>/.config/Freedom` when `XDG_CONFIG_HOME` is unset or empty.
  package static func linuxDefault(home: String, xdgConfigHome: String?) -> DesktopUserData {
    let config = xdgConfigHome.flatMap { $0.isEmpty ? nil : $0 } ?? NodePath.join(home, ".config")
    return DesktopUserData(root: NodePath.join(config, appName))
  }

  /// antd's data directory.
  package var antData: String { NodePath.join(root, DesktopInstallation.antData) }
  /// antd's keystore, the Swarm wallet.
  package var antKeystore: String { NodePath.join(antData, Antd.keystoreFile) }
  /// antd's config, whose `password:` decrypts the keystore.
  package var antConfig: String { NodePath.join(antData, Antd.configFile) }
  /// The identity antd makes itself when it starts without a keystore.
  package var antSelfMadeIdentity: String { NodePath.join(antData, Antd.ownIdentityFile) }
  /// The raw key file antd writes beside its self-made identity.
  package var antSelfMadeSigningKey: String { NodePath.join(antData, Antd.ownSigningKeyFile) }
  /// The bee data directory of versions before antd.
  package var beeData: String { NodePath.join(root, "bee-data") }
  /// The identity directory.
  package var identity: String { NodePath.join(root, "identity") }
  /// The encrypted mnemonic.
  package var vault: String { NodePath.join(root, DesktopInstallation.vaultFile) }
  /// The vault's public metadata.
  package var vaultMeta: String { NodePath.join(root, DesktopInstallation.vaultMetaFile) }
  /// The kubo repository of older versions.
  package var ipfsData: String { NodePath.join(root, "ipfs-data") }
  /// Radicle's home for a profile outside the catalog (and the source desktop copies from).
  package var radicleData: String { NodePath.join(root, "radicle-data") }
  /// The profile catalog a packaged build keeps in its app root.
  package var profileRegistry: String { NodePath.join(root, "profile-registry.json") }
  /// This profile's metadata (`slot`, ports).
  package var profileMetadata: String { NodePath.join(root, "profile.json") }

  /// Radicle's home for the catalog profile in `slot` when `root` is the app root (a packaged
  /// build's default profile).
  package func catalogRadicleHome(slot: Int) -> String {
    NodePath.join(root, Self.catalogDirectory + "/\(slot)")
  }

  /// The directory of the app root that holds every profile's Radicle home, one per slot.
  package static let catalogDirectory = "R"
}

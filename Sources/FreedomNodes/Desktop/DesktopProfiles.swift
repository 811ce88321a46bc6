import NodeFiles
import VaultKeys

/// Where desktop Freedom keeps a profile, as `profile-resolver.js`, `profile-catalog.js` and
/// `profile-paths.js` lay it out (docs/desktop-user-data.md): the app root holds
/// `profile-registry.json`; the default profile's userData is the app root itself (packaged)
/// or `Profiles/default` (dev builds), every other profile's `Profiles/<id>`; Radicle's home is
/// `<appRoot>/R/<slot>` (packaged) or `<Freedom Dev>/R/<checkout hash>/<slot>` (dev), the slot
/// read from the profile's `profile.json` (else its registry record); a profile without one
/// uses `<userData>/radicle-data`.
package struct DesktopProfileLocation: Sendable, Equatable {
  /// The app root (nil: a userData outside any catalog, e.g. desktop's `--profile-dir`).
  package let appRoot: String?
  /// The profile's id (nil outside a catalog).
  package let profileID: String?
  /// The profile's userData.
  package let userData: String
  /// Its slot, when it has one.
  package let slot: Int?
  /// Radicle's home, where desktop reads it.
  package let radicleHome: String
  /// The registration an export writes, for a profile the registry does not list yet.
  package var registration: DesktopProfileRegistration? = nil

  /// The dev build's parent directory name (`<appData>/Freedom Dev/<checkout>`).
  static let devParent = "Freedom Dev"
  /// A dev build's checkout directory: `freedom-browser-<8 hex of its repository path>`.
  static let checkoutPrefix = "freedom-browser-"
  static let profilesDirectory = "Profiles"

  /// The profile whose userData is `userData`: an app root holding the registry (its default
  /// profile), `<appRoot>/Profiles/<id>`, or a userData outside a catalog.
  static func of(userData: String) throws(NodeError) -> DesktopProfileLocation {
    let parent = NodePath.parent(userData)
    if NodePath.leaf(parent) == profilesDirectory {
      let appRoot = NodePath.parent(parent)
      if let registry = try registry(appRoot) {
        return try located(
          appRoot: appRoot, id: NodePath.leaf(userData), userData: userData,
          record: registry.profile(named: NodePath.leaf(userData)))
      }
    }
    if let registry = try registry(userData) {
      if isDev(appRoot: userData) {
        return try profile(
          DesktopProfileRegistry.defaultProfileID, appRoot: userData, registry: registry)
      }
      return try located(
        appRoot: userData, id: DesktopProfileRegistry.defaultProfileID, userData: userData,
        record: registry.profile(named: DesktopProfileRegistry.defaultProfileID))
    }
    let paths = DesktopUserData(root: userData)
    return DesktopProfileLocation(
      appRoot: nil, profileID: nil, userData: userData, slot: nil, radicleHome: paths.radicleData)
  }

  /// The profile `name` (an id or display name) of the app root `appRoot`. With `registering`,
  /// a name the registry (or an app root without one) does not list is a new profile, located
  /// where desktop would register it (`DesktopProfileRegistration`).
  static func named(_ name: String, appRoot: String, registering: Bool = false)
    throws(NodeError) -> DesktopProfileLocation
  {
    let registry = try registry(appRoot, strict: true)
    if registering, registry?.profiles(named: name).isEmpty ?? true {
      let new = try DesktopProfileRegistration.new(name, appRoot: appRoot, registry: registry)
      let home = radicleHome(appRoot: appRoot, slot: new.slot)
      // Desktop opens a new profile in fresh folders; what is there belongs to something else.
      for folder in [new.userData, home]
      where folder != appRoot
        && !DesktopDirectory.entries(folder).allSatisfy({ $0.hasPrefix(".freedom-keys") })
      {
        throw .invalidInput(.unregisteredProfileFolder(path: folder))
      }
      var location = DesktopProfileLocation(
        appRoot: appRoot, profileID: new.id, userData: new.userData, slot: new.slot,
        radicleHome: home)
      location.registration = new
      return location
    }
    guard let registry else { throw .noProfileRegistry(appRoot: appRoot) }
    return try profile(name, appRoot: appRoot, registry: registry)
  }

  private static func profile(
    _ name: String, appRoot: String, registry: DesktopProfileRegistry
  ) throws(NodeError) -> DesktopProfileLocation {
    let found = registry.profiles(named: name)
    guard let record = found.first else {
      throw .noSuchProfile(name, appRoot: appRoot, known: registry.profiles.map(\.id))
    }
    guard Set(found.map(\.id)).count == 1 else {
      throw .ambiguousProfile(appRoot: appRoot, ids: found.map(\.id))
    }
    return try located(
      appRoot: appRoot, id: record.id, userData: userData(of: record.id, appRoot: appRoot),
      record: record)
  }

  /// The userData of profile `id`: the app root for a packaged build's default profile, else
  /// `Profiles/<id>`.
  static func userData(of id: String, appRoot: String) -> String {
    id == DesktopProfileRegistry.defaultProfileID && !isDev(appRoot: appRoot)
      ? appRoot : NodePath.join(appRoot, profilesDirectory + "/" + id)
  }

  private static func located(
    appRoot: String, id: String, userData: String, record: DesktopProfileRegistry.Profile?
  ) throws(NodeError) -> DesktopProfileLocation {
    // A registry id becomes a path below the app root: only one desktop itself makes.
    if let record, !DesktopProfileRegistry.isDesktopID(record.id) {
      throw .invalid(
        path: NodePath.join(appRoot, DesktopProfileRegistry.fileName),
        reason:
          "a profile's id is not one desktop makes (desktop sanitises ids to a-z, 0-9, _ and "
          + "-, and never writes another); move the record out of the registry")
    }
    let paths = DesktopUserData(root: userData)
    var slot = record?.slot
    if let bytes = try NodeFileAccess.read(paths.profileMetadata) {
      do {
        slot = try DesktopProfileMetadata(json: bytes).slot
      } catch {
        throw .invalid(path: paths.profileMetadata, reason: "\(error)")
      }
    }
    let home = slot.map { radicleHome(appRoot: appRoot, slot: $0) } ?? paths.radicleData
    return DesktopProfileLocation(
      appRoot: appRoot, profileID: id, userData: userData, slot: slot, radicleHome: home)
  }

  /// `<appRoot>/R/<slot>`, or `<Freedom Dev>/R/<checkout hash>/<slot>` for a dev build.
  static func radicleHome(appRoot: String, slot: Int) -> String {
    guard isDev(appRoot: appRoot) else {
      return NodePath.join(appRoot, DesktopUserData.catalogDirectory + "/\(slot)")
    }
    let leaf = NodePath.leaf(appRoot)
    let hash = leaf.hasPrefix(checkoutPrefix) ? String(leaf.dropFirst(checkoutPrefix.count)) : "dev"
    return NodePath.join(
      NodePath.parent(appRoot), DesktopUserData.catalogDirectory + "/\(hash)/\(slot)")
  }

  /// Whether `appRoot` is a dev build's (`…/Freedom Dev/<checkout>`).
  static func isDev(appRoot: String) -> Bool {
    NodePath.leaf(NodePath.parent(appRoot)) == devParent
  }

  /// The registry in `appRoot`, nil when there is none. One desktop cannot read is refused
  /// when `strict` (a profile is looked up in it), else read as listing no profile (its
  /// presence alone makes the directory an app root, as before profiles were read).
  static func registry(_ appRoot: String, strict: Bool = false) throws(NodeError)
    -> DesktopProfileRegistry?
  {
    let path = NodePath.join(appRoot, DesktopProfileRegistry.fileName)
    guard let bytes = try NodeFileAccess.read(path) else { return nil }
    do {
      return try DesktopProfileRegistry(json: bytes)
    } catch {
      guard strict else { return DesktopProfileRegistry(profiles: []) }
      throw .invalid(path: path, reason: "\(error)")
    }
  }

  /// The userData of the profile whose Radicle home is `home` (`<appRoot>/R/<slot>` or a dev
  /// build's `R/<hash>/<slot>`), when a registry names one.
  static func owner(ofRadicleHome home: String) -> String? {
    guard let slot = Int(NodePath.leaf(home)) else { return nil }
    let parent = NodePath.parent(home)
    var appRoots: [String] = []
    if NodePath.leaf(parent) == DesktopUserData.catalogDirectory {
      appRoots.append(NodePath.parent(parent))
    } else if NodePath.leaf(NodePath.parent(parent)) == DesktopUserData.catalogDirectory {
      let devRoot = NodePath.parent(NodePath.parent(parent))
      appRoots.append(NodePath.join(devRoot, checkoutPrefix + NodePath.leaf(parent)))
    }
    for appRoot in appRoots {
      guard let registry = try? registry(appRoot) else { continue }
      for record in registry.profiles {
        let userData = userData(of: record.id, appRoot: appRoot)
        if let location = try? located(
          appRoot: appRoot, id: record.id, userData: userData, record: record),
          location.slot == slot, location.radicleHome == home
        {
          return userData
        }
      }
      return isDev(appRoot: appRoot) ? nil : appRoot
    }
    return nil
  }

  /// Refuses `path` (a profile's userData or Radicle home found below the app root, or below a
  /// dev build's `Freedom Dev`) when a folder on the way to it from there is a symbolic link or
  /// not a directory: desktop makes each as a directory, and a link (`Profiles/<id>` or
  /// `R/<slot>` pointing elsewhere) would send the vault or Radicle's key out of the app root.
  /// What does not exist yet is created as a directory below the folders checked.
  func requireNoLink(to path: String) throws(NodeError) {
    guard let appRoot else { return }
    var base = appRoot
    if DesktopInstallation.relative(path, under: appRoot) == nil {
      guard Self.isDev(appRoot: appRoot) else { return }
      base = NodePath.parent(appRoot)
    }
    guard let rest = DesktopInstallation.relative(path, under: base) else { return }
    var current = base
    for component in rest.split(separator: "/") {
      current = NodePath.join(current, String(component))
      let checked = current
      guard
        let status = try NodeSession.engine({ () throws(NodeFileError) in
          try FileStatus.of(checked)
        })
      else { return }
      if status.isSymbolicLink { throw .linkBelowAppRoot(path: current, appRoot: base) }
      guard status.isDirectory else { throw .notADirectory(current) }
    }
  }

  /// Every profile of the app root's registry, located.
  func allProfiles() throws(NodeError) -> [DesktopProfileLocation] {
    guard let appRoot, let registry = try Self.registry(appRoot) else { return [] }
    var all: [DesktopProfileLocation] = []
    for record in registry.profiles {
      all.append(
        try Self.located(
          appRoot: appRoot, id: record.id,
          userData: Self.userData(of: record.id, appRoot: appRoot), record: record))
    }
    return all
  }

  /// The staging folders desktop copies radicle-data through (`<home>.migrating-<pid>-<ts>`,
  /// beside the home), full paths.
  func radicleStagingFolders() -> [String] {
    let parent = NodePath.parent(radicleHome)
    let prefix = NodePath.leaf(radicleHome) + ".migrating-"
    return DesktopDirectory.entries(parent).filter { $0.hasPrefix(prefix) }.sorted().map {
      NodePath.join(parent, $0)
    }
  }
}

/// What a directory given as a desktop installation (or as antd's) is, from the names in it:
/// desktop's parts (profile-paths.js), another node's files, or nothing known.
enum DesktopDirectory {
  /// Files and directories only desktop Freedom puts in a userData or app root.
  static let markers = [
    DesktopProfileRegistry.fileName, "profile.json", DesktopPublisherMap.fileName, "identity",
    DesktopInstallation.antData, "bee-data", "radicle-data", "ipfs-data", "tor-data",
    DesktopVaultMeta.fileName, DesktopInstallation.beeOnlyDataPendingDelete,
  ]

  /// The names in directory `path` (nothing when it cannot be listed).
  static func entries(_ path: String) -> [String] { NodePath.entries(path) }

  /// Whether `path` holds a part of desktop Freedom (a marker, or an `R/` with a slot).
  static func holdsFreedom(_ path: String) throws(NodeError) -> Bool {
    for name in markers where try NodeFileAccess.status(NodePath.join(path, name)) != nil {
      return true
    }
    let homes = NodePath.join(path, DesktopUserData.catalogDirectory)
    return entries(homes).contains { Int($0) != nil || $0.contains(".migrating-") }
  }

  /// Refuses a directory that holds a part of desktop Freedom, given as the directory of one
  /// node (`wanted`): it is a userData or app root, and the node desktop runs there keeps its
  /// files in the ant-data inside it.
  static func refuseInstallationRoot(_ path: String, wanted: NodeError.WantedDirectory)
    throws(NodeError)
  {
    guard try NodeFileAccess.statusFollowingLinks(path)?.isDirectory == true,
      try holdsFreedom(path)
    else { return }
    throw .wrongDirectory(
      path: path, .desktopUserData(antData: NodePath.join(path, DesktopInstallation.antData)),
      wanted: wanted)
  }

  /// The desktop part `path` is, with the userData it belongs to.
  static func part(_ path: String) throws(NodeError) -> NodeError.WrongDirectory? {
    let leaf = NodePath.leaf(path)
    let parent = NodePath.parent(path)
    let parts: [String: NodeError.DesktopPart] = [
      DesktopInstallation.antData: .antData, "bee-data": .beeData, "ipfs-data": .ipfsData,
      "radicle-data": .radicleData, "identity": .identity,
      DesktopUserData.catalogDirectory: .radicleHomes,
      DesktopProfileLocation.profilesDirectory: .profiles,
    ]
    if let part = parts[leaf], parent != "/", try holdsFreedom(parent) {
      return .partOfInstallation(part, userData: parent)
    }
    if let slot = Int(leaf), NodePath.leaf(parent) == DesktopUserData.catalogDirectory {
      let root = NodePath.parent(parent)
      if try holdsFreedom(root) {
        let owner = DesktopProfileLocation.owner(ofRadicleHome: path) ?? root
        return .partOfInstallation(.radicleHome(slot: slot), userData: owner)
      }
    }
    return nil
  }

  /// Another node's own directory, recognised by its files.
  static func node(_ path: String) throws(NodeError) -> NodeError.RecognisedNode? {
    func has(_ name: String) throws(NodeError) -> Bool {
      try NodeFileAccess.status(NodePath.join(path, name)) != nil
    }
    if try has("keys/radicle") { return .radicle }
    if try has("config") {
      for name in ["datastore", "keystore", "datastore_spec"] where try has(name) { return .kubo }
    }
    var stores = false
    for name in ["statestore", "localstore"] where try has(name) { stores = true }
    if stores, try !has(Antd.configFile), try !has(Antd.lockFile) { return .bee }
    if try has(Antd.keystoreFile) { return .swarmNode }
    return nil
  }
}

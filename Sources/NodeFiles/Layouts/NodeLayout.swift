/// What a node keeps in its directory, as far as freedom-keys writes or checks it: the files,
/// which of them make up the identity, and which state belongs to the identity and goes with it.
///
/// Each node type of FreedomNodes owns its layout (`Bee.layout`, …); to describe a node:
/// 1. List every file an export writes in `files`, relative to the node directory, so that
///    recovery knows the temporary names (`.<name>.tmp-<hex>`) of older versions to remove.
/// 2. If several files must change together (a key pair, bee's `keys/`), put them in one
///    `identityDirectory`: the transaction builds the new directory beside it and swaps the two
///    with `renameat2(RENAME_EXCHANGE)`, so a reader sees the old directory or the new one.
///    Files elsewhere are replaced one by one with `rename`, in the order the change lists them.
/// 3. List in `identityState` what the node keeps for an identity besides its keys (bee's
///    statestore), to hand to `NodeChange.removing` when an identity is replaced: it is moved
///    aside before the commit and deleted after it.
/// Then `NodeDirectory.open(_:layout:)` locks and recovers the directory, and
/// `NodeDirectory.apply(_:)` applies a `NodeChange`; `verify` opens the same layout to read.
package struct NodeLayout: Sendable {
  /// What the directory is, for messages ("bee data directory").
  package let name: String
  /// Every file an export writes, relative to the directory.
  package let files: [String]
  /// The subdirectory whose files together are one identity, or nil.
  package let identityDirectory: String?
  /// What belongs to an identity besides the files written for it, relative to the directory.
  package let identityState: [String]
  /// Folders below the directory that keep their own backups (nested node directories one
  /// change spans, a desktop profile's `Profiles/<id>` and `R/<slot>` below its app root): what
  /// a change replaces below one goes to `<part>/.freedom-keys.replaced/<name>/…`, and an undo
  /// puts back what each holds under the same name.
  package let parts: [String]

  package init(
    name: String, files: [String], identityDirectory: String?, identityState: [String],
    parts: [String] = []
  ) {
    self.name = name
    self.files = files
    self.identityDirectory = identityDirectory
    self.identityState = identityState
    self.parts = parts
  }

  /// Names freedom-keys itself keeps in a node directory while it changes it.
  static let lockName = NodeDirectoryLock.fileName
  static let intentName = ".freedom-keys.intent"
  static let stagingName = ".freedom-keys.new"
  static let asideName = ".freedom-keys.old"
  static let trashPrefix = ".freedom-keys.trash-"
  /// Where backups of replaced files go by convention (`NodeChange.backup`).
  package static let replacedName = ".freedom-keys.replaced"

  /// Whether `name` (in the directory or in the identity directory) is a temporary file an
  /// older or interrupted freedom-keys left: `.<file>.tmp-<12 hex digits>`.
  func isStaleTemporary(_ name: String, in subdirectory: String?) -> Bool {
    let marker = ".tmp-"
    guard name.hasPrefix("."), name.count > 1 + marker.count + 12 else { return false }
    let suffixStart = name.index(name.endIndex, offsetBy: -12)
    guard name[suffixStart...].allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
      name[..<suffixStart].hasSuffix(marker)
    else {
      return false
    }
    let markerStart = name.index(suffixStart, offsetBy: -marker.count)
    let base = String(name[name.index(after: name.startIndex)..<markerStart])
    let prefix = subdirectory.map { $0 + "/" } ?? ""
    return files.contains(prefix + base) || (subdirectory == nil && base == Self.intentName)
  }
}

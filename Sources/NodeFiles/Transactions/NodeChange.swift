import CryptoPrimitives

/// A change to a node directory, applied all or nothing by `NodeDirectory.apply(_:)`.
package struct NodeChange: Sendable {
  /// One file to write, at a path relative to the node directory.
  package struct File: Sendable {
    package let path: String
    package let bytes: SecureBytes
    /// The permission bits the file ends with (it is written 0600 and set to this just before
    /// it takes its place).
    package let mode: UInt32
    /// The owner and group to give the file when running as root, or nil for root's own.
    package let owner: (user: UInt32, group: UInt32)?

    package init(
      _ path: String, _ bytes: SecureBytes, mode: UInt32 = 0o600,
      owner: (user: UInt32, group: UInt32)? = nil
    ) {
      self.path = path
      self.bytes = bytes
      self.mode = mode
      self.owner = owner
    }
  }

  /// The files to write, in the order they are put in place; the identity directory's files
  /// take their place together, at the position of the first of them.
  package var files: [File] = []
  /// What belongs to the identity being replaced (`NodeLayout.identityState`): moved aside
  /// before the commit, deleted after it; absent paths are skipped.
  package var removing: [String] = []
  /// Where to keep what the change replaces or removes, relative to the node directory (e.g.
  /// `.freedom-keys.replaced/2026-12-01T10-00-00Z-0xd21d…`), or nil to delete it once the
  /// change is committed. Created 0700, owned like its parent; each old entry goes to
  /// `backup/<its path>`.
  package var backup: String?

  package init(files: [File] = [], removing: [String] = [], backup: String? = nil) {
    self.files = files
    self.removing = removing
    self.backup = backup
  }
}

/// What `apply` did, for the report.
package struct NodeChangeResult: Sendable {
  /// Full paths of the files written.
  package var written: [String] = []
  /// Full paths of what was removed with the old identity.
  package var removed: [String] = []
  /// Where each old file or directory went (full paths), when the change had a backup.
  package var keptAside: [KeptAside] = []
  /// Things the caller should tell the user (an old file that could not be deleted).
  package var warnings: [String] = []

  /// An old file or directory moved into the backup directory.
  package struct KeptAside: Sendable, Equatable {
    /// Where it was.
    package let original: String
    /// Where it is now.
    package let backup: String
  }
}

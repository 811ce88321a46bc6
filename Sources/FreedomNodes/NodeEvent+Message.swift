/// How an event words itself as a warning.
extension NodeEvent {
  /// The warning's line; nil for a key derivation, which the tool announces its own way.
  package var warning: String? {
    switch self {
    case .engine(let line): line
    case .sharedSecretFile(let path, let mode):
      "\(path) is accessible by other users (mode \(Kubo.octal(mode))); run chmod 600 \(path)"
    case .antdDataDirElsewhere(let config, let dataDir, let directory):
      "\(config) sets data-dir: \(dataDir); antd started with this config uses that "
        + "directory, not \(directory) (desktop Freedom rewrites it at start)"
    case .keyDerivation: nil
    }
  }
}

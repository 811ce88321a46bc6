/// The journal of one change: what was moved aside and what is being replaced by what, so that a
/// later run can finish or undo it after a crash. It lives in `<dir>/.freedom-keys.intent`,
/// written atomically and flushed before the first change to the directory, removed after the
/// last one. A text file of one step a line:
///
///     freedom-keys intent 1
///     aside 0 statestore
///     dir 1 keys 1234567 old
///     file 2 password 1234568 new
///     end
///
/// `aside i path`: path was (or is being) renamed to `.freedom-keys.old/i`.
/// `file i path inode old|new`: `.freedom-keys.new/i` (that inode) replaces path; `old` when a
/// file was there, kept as a hard link `.freedom-keys.old/i` until the change is finished.
/// `dir i path inode old|new`: `.freedom-keys.new/i` is swapped with the directory path.
/// A step is committed when path has the recorded inode.
struct IntentRecord: Equatable {
  enum Kind: String { case aside, file, dir }

  struct Step: Equatable {
    let kind: Kind
    let index: Int
    let path: String
    /// The staged file's or directory's inode (file and dir steps).
    let inode: UInt64
    /// Whether something was at `path` before.
    let existed: Bool
  }

  var steps: [Step]

  static let header = "freedom-keys intent 1"

  var text: String {
    var lines = [Self.header]
    for step in steps {
      switch step.kind {
      case .aside: lines.append("aside \(step.index) \(step.path)")
      case .file, .dir:
        lines.append(
          "\(step.kind.rawValue) \(step.index) \(step.path) \(step.inode) "
            + (step.existed ? "old" : "new"))
      }
    }
    lines.append("end")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Parses a record; nil when it is not one this version wrote, or names a path outside
  /// `layout`'s files, identity directory and identity state.
  init?(text: String, layout: NodeLayout) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.first == Self.header, lines.count >= 3, lines.removeLast() == "",
      lines.removeLast() == "end"
    else { return nil }
    let allowed = Set(
      layout.files + layout.identityState + [layout.identityDirectory].compactMap { $0 })
    var steps: [Step] = []
    for line in lines.dropFirst() {
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count >= 3, let kind = Kind(rawValue: fields[0]), let index = Int(fields[1]),
        index == steps.count, allowed.contains(fields[2])
      else { return nil }
      switch kind {
      case .aside:
        guard fields.count == 3 else { return nil }
        steps.append(Step(kind: kind, index: index, path: fields[2], inode: 0, existed: true))
      case .file, .dir:
        guard fields.count == 5, let inode = UInt64(fields[3]), ["old", "new"].contains(fields[4])
        else { return nil }
        steps.append(
          Step(kind: kind, index: index, path: fields[2], inode: inode, existed: fields[4] == "old")
        )
      }
    }
    self.steps = steps
  }

  init(steps: [Step]) { self.steps = steps }
}

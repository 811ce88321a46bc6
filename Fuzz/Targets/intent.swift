@testable import NodeFiles

/// The intent record parser (versions 1 and 2): never crashes; every record it accepts names
/// only paths beneath the directory and none of the engine's own; and the record written back
/// reads back to the same record and the same text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = bytes(data, size)
  guard let text = String(validating: input, as: UTF8.self), let record = IntentRecord(text: text)
  else { return 0 }
  for step in record.steps {
    require(IntentRecord.isStepPath(step.path), "a step names \(step.path)")
    let components = step.path.split(separator: "/", omittingEmptySubsequences: false)
    require(
      !step.path.hasPrefix("/") && !components.contains { $0 == ".." || $0 == "." || $0.isEmpty },
      "a step leaves: \(step.path)")
    require(
      !step.path.split(separator: "/").contains { $0.hasPrefix(".freedom-keys") },
      "a step names an engine file: \(step.path)")
  }
  if let backup = record.backup {
    require(IntentRecord.isBackupPath(backup), "the backup is \(backup)")
    require(!backup.split(separator: "/").contains(".."), "the backup leaves: \(backup)")
  }
  require(record.version == 1 || record.version == 2, "version \(record.version)")
  require(record.version == 2 || !record.committed, "a version 1 record with a commit mark")
  let written = record.text
  require(IntentRecord(text: written) == record, "the written record reads back differently")
  require(written == text, "the written record is not the text it was read from")
  return 0
}

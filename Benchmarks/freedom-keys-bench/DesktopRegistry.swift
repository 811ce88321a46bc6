// The input of the registry case: an app root whose profile-registry.json holds as many
// profiles as fit below the 4 MiB limit of a node file, each with a display name and a slot.

import Foundation

/// The most bytes freedom-keys reads of a node file (4 MiB), as the tool documents it.
let nodeFileLimit = 4 * 1024 * 1024

/// Writes `<directory>/profile-registry.json` just below `nodeFileLimit` and returns how many
/// profiles it holds.
func writeRegistryAtTheLimit(in directory: String) -> Int {
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let limit = nodeFileLimit
  var text = #"{"version": 1, "profiles": [{"id": "default", "displayName": "Main", "slot": 0}"#
  var count = 1
  while true {
    let record = #", {"id": "p\#(count)", "displayName": "P \#(count)", "slot": \#(count)}"#
    guard text.utf8.count + record.utf8.count + 2 <= limit else { break }
    text += record
    count += 1
  }
  text += "]}"
  _ = FileManager.default.createFile(
    atPath: directory + "/profile-registry.json", contents: Data(text.utf8))
  return count
}

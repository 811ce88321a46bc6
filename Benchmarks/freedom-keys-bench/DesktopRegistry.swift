// The input of the registry case: an app root whose profile-registry.json holds as many
// profiles as fit below the 4 MiB limit of a node file, each with a display name and a slot.

import Foundation
import NodeFiles
import VaultKeys

/// abandon…about's identities, the profile verify compares against.
let freedomProfile = try! FreedomProfile(mnemonic: Mnemonic(phrase: phrase))

/// Writes `<directory>/profile-registry.json` just below `NodeFileReader.maximumByteCount` and
/// returns how many profiles it holds.
func writeRegistryAtTheLimit(in directory: String) -> Int {
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let limit = NodeFileReader.maximumByteCount
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
    atPath: directory + "/" + DesktopProfileRegistry.fileName, contents: Data(text.utf8))
  return count
}

// `recover`'s memory against the number of parts of its search (issue 18, item 6): the
// freedom-keys binary run on ever more wrong words, each run stopped by --max-hours a moment
// after it has built its parts and started, its peak RSS taken from wait4. A search too large
// (2^63 candidates) is refused before its parts are built: its RSS is the floor's.

import Foundation

struct RecoverMemoryPoint: Encodable {
  /// The words written and the damage options.
  let search: String
  /// The parts of the search (one per choice of wrong positions); nil: refused as too large.
  let parts: Int?
  let peakRSSKiB: Int
  let exitStatus: Int32
}

/// C(n, 0) + … + C(n, k): the parts of a search of up to k wrong words among n.
private func partCount(words n: Int, typos k: Int) -> Int {
  var total = 0
  var binomial = 1
  for i in 0...k {
    total += binomial
    binomial = binomial * (n - i) / (i + 1)
  }
  return total
}

@MainActor func measureRecoverMemory() -> [RecoverMemoryPoint]? {
  guard filter.map({ "recover memory".contains($0) }) ?? true,
    let binary = freedomKeysBinary()
  else { return nil }
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-memory-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  // abandon × 23 art: the published 24-word test phrase.
  let words = (Array(repeating: "abandon", count: 23) + ["art"]).joined(separator: " ")
  let file = directory.appendingPathComponent("words.txt").path
  _ = FileManager.default.createFile(
    atPath: file, contents: Data((words + "\n").utf8), attributes: [.posixPermissions: 0o600])
  // An address no candidate has: every run is stopped by --max-hours (0.1 s).
  let common = [
    "recover", "--mnemonic-file", file, "--address", "0x0000000000000000000000000000000000000001",
    "--threads", "1", "--max-hours", "0.00003",
  ]
  var points: [RecoverMemoryPoint] = []
  for typos in [0, 1, 2, 3, 4, 12] {
    guard
      let (status, kib) = runQuietly(binary, common + ["--typos", String(typos)]).map({
        ($0.status, $0.peakRSSKiB)
      })
    else {
      continue
    }
    // 12 wrong words of 24: more than 2^63 candidates, refused (exit 1).
    let parts = status == 1 ? nil : partCount(words: 24, typos: typos)
    points.append(
      RecoverMemoryPoint(
        search: "24 words, --typos \(typos)", parts: parts, peakRSSKiB: kib, exitStatus: status))
    FileHandle.standardError.write(
      Data(
        ("recover memory: 24 words, --typos \(typos): \(parts.map(String.init) ?? "refused") "
          + "parts, peak RSS \(kib) KiB\n").utf8))
  }
  return points
}

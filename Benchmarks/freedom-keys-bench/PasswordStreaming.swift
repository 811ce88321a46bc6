// `recover password` over a token list, its passwords numbered and made as the search takes
// them (issue 37, item 2), against the same passwords held in memory as a candidates file, in
// the same binary: the 1,000-iteration vault fixture, 100,000 passwords that do not open it
// (every one tried, exit 4), the two runs alternated, each first in turn. `streamedVsHeld` is
// the held run's median wall time over the streamed one's (≥ 0.98: the streamed search costs at
// most 2 % more).

import Foundation

struct PasswordStreamingReport: Encodable {
  let passwords: Int
  let runs: Int
  let streamedMedianMs: Double
  let heldMedianMs: Double
  let streamedVsHeld: Double
  let streamedPeakRSSKiB: Int
  let heldPeakRSSKiB: Int
}

@MainActor func measurePasswordStreaming(runs: Int = 6) -> PasswordStreamingReport? {
  guard filter.map({ "password streaming".contains($0) }) ?? true,
    let binary = freedomKeysBinary()
  else { return nil }
  let vault =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Tests/GoldenVectors/Vectors/vaults/shifted-truncated.json").path
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-streaming-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  func write(_ name: String, _ text: String) -> String {
    let path = directory.appendingPathComponent(name).path
    _ = FileManager.default.createFile(
      atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    return path
  }
  // "x00000" … "x99999" either way, in the same order.
  let passwords = 100_000
  let tokens = write("tokens.txt", "+ x%5d\n")
  let candidates = write(
    "candidates.txt",
    (0..<passwords).map { "x" + String(repeating: "0", count: 5 - String($0).count) + String($0) }
      .joined(separator: "\n") + "\n")
  let common = ["recover", "password", "--vault", vault, "--threads", "2"]
  guard
    let (streamed, held) = alternatingRuns(
      "password streaming", binary, common + ["--tokens", tokens],
      common + ["--password-candidates", candidates], runs: runs, expecting: 4,
      statesIn: directory)
  else { return nil }
  let (streamedMs, heldMs) = (streamed.medianMs, held.medianMs)
  let result = PasswordStreamingReport(
    passwords: passwords, runs: runs, streamedMedianMs: streamedMs, heldMedianMs: heldMs,
    streamedVsHeld: heldMs / streamedMs, streamedPeakRSSKiB: streamed.peakRSSKiB,
    heldPeakRSSKiB: held.peakRSSKiB)
  FileHandle.standardError.write(
    Data(
      ("password streaming: \(passwords) passwords, streamed \(Int(streamedMs)) ms, held "
        + "\(Int(heldMs)) ms: ×\(result.streamedVsHeld)\n").utf8))
  return result
}

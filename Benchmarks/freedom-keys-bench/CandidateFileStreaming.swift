// `recover password --password-candidates` over a file too large to hold (2^23 + 1 lines, read
// line by line as the search takes it: counted in one pass, indexed sparsely, issue 37, item 2)
// against a file of the same kind of lines that is held, in the same binary: the 1,000-iteration
// vault fixture, lines that do not open it, every one tried (exit 4). The streamed run takes its
// first part of 84 (`--shard 1/84`, about 100,000 lines: the parts after it are never read but
// its count pass reads the whole file); the held run a file of the same 100,000-odd lines. The
// two runs alternate, each first in turn. `streamedVsHeld` compares candidates per second
// (median of each): ≥ 0.98 means reading lines from the file costs at most 2 %, the count pass
// over 75 MB included.

import Foundation

struct CandidateFileStreamingReport: Encodable {
  let streamedLines: Int
  let streamedTried: Int
  let heldLines: Int
  let runs: Int
  let streamedMedianMs: Double
  let heldMedianMs: Double
  let streamedVsHeld: Double
  let streamedPeakRSSKiB: Int
  let heldPeakRSSKiB: Int
}

@MainActor func measureCandidateFileStreaming(runs: Int = 6) -> CandidateFileStreamingReport? {
  guard filter.map({ "candidate file streaming".contains($0) }) ?? true,
    let binary = freedomKeysBinary()
  else { return nil }
  let vault =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Tests/GoldenVectors/Vectors/vaults/shifted-truncated.json").path
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-lines-\(getpid())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  // "x0000000" … : eight bytes and a newline each.
  func lines(_ count: Int) -> Data {
    var data = Data(capacity: count * 9)
    var line = Array("x0000000\n".utf8)
    for number in 0..<count {
      var value = number
      for place in stride(from: 7, through: 1, by: -1) {
        line[place] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      }
      data.append(contentsOf: line)
    }
    return data
  }
  func write(_ name: String, _ data: Data) -> String {
    let path = directory.appendingPathComponent(name).path
    _ = FileManager.default.createFile(
      atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
    return path
  }
  let streamedLines = (1 << 23) + 1
  let parts = 84
  // The first part's share, as the search splits it (floor of the total over the parts).
  let tried = streamedLines / parts
  let large = write("large.txt", lines(streamedLines))
  let small = write("small.txt", lines(tried))
  let common = ["recover", "password", "--vault", vault, "--threads", "2"]
  guard
    let (streamed, held) = alternatingRuns(
      "candidate file streaming", binary,
      common + ["--password-candidates", large, "--shard", "1/\(parts)"],
      common + ["--password-candidates", small], runs: runs, expecting: 4, statesIn: directory)
  else { return nil }
  let (streamedMs, heldMs) = (streamed.medianMs, held.medianMs)
  // Both runs try `tried` lines (the shard's and the small file's): a rate ratio is a time one.
  let result = CandidateFileStreamingReport(
    streamedLines: streamedLines, streamedTried: tried, heldLines: tried, runs: runs,
    streamedMedianMs: streamedMs, heldMedianMs: heldMs, streamedVsHeld: heldMs / streamedMs,
    streamedPeakRSSKiB: streamed.peakRSSKiB, heldPeakRSSKiB: held.peakRSSKiB)
  FileHandle.standardError.write(
    Data(
      ("candidate file streaming: \(tried) of \(streamedLines) lines streamed \(Int(streamedMs)) "
        + "ms, \(tried) held \(Int(heldMs)) ms: ×\(result.streamedVsHeld)\n").utf8))
  return result
}

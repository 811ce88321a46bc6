// `recover --order-lost` against the damage search in the same run (issue 37): both on one key
// (--peer-id), 2 threads, the same binary, each about 30,000 checksum-valid candidates, no match.
// The goal is a rate of at least 0.95× the damage search's: walking the orders must not starve
// the seed kernel. The two alternate three times and each keeps its best run, so that load from
// other processes on a shared machine disturbs the ratio less.
import CryptoPrimitives
import Foundation
import VaultKeys

struct RecoverOrderLostReport: Encodable {
  struct Run: Encodable {
    let search: String
    let checked: Double
    let seconds: Double
    /// Checksum-valid candidates checked a second, from recover's --json.
    let rate: Double
  }
  var runs: [Run] = []
  /// The order-lost rate over the damage rate (goal ≥ 0.95).
  var orderOverDamage: Double?
}

@MainActor func recoverOrderLost() throws {
  let name = "recover order lost against damage: 12 words, one key, 2 threads"
  if let filter, !name.contains(filter) { return }
  guard let binary = freedomKeysBinary() else { return }
  let other = try FreedomProfile(seed: SecureBytes([UInt8](repeating: 7, count: 64)))
  var damaged = mnemonic.split(separator: " ").map(String.init)
  (damaged[2], damaged[6]) = ("?", "?")
  // BIP-39 vector (Trezor) of 0xc0ba5a8e914111210f2bd131f3d5e08d: twelve distinct words.
  let distinct = "scheme spot photo card baby mountain device kick cradle pact join borrow"
  let searches: [(String, String, [String])] = [
    // 2048² / 8 candidates: 32,768 pass the checksum.
    ("damage: 2 unknown words, shard 1/8", damaged.joined(separator: " "), ["--shard", "1/8"]),
    // 12! / 1000 orders: about 30,000 pass the checksum.
    (
      "order lost: 12 distinct words, shard 1/1000", distinct,
      ["--order-lost", "--shard", "1/1000"]
    ),
  ]
  var result = RecoverOrderLostReport()
  for (label, phrase, options) in Array(repeating: searches, count: 3).joined() {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("freedom-keys-bench-order-\(getpid())").path
    _ = FileManager.default.createFile(
      atPath: file, contents: Data((phrase + "\n").utf8),
      attributes: [.posixPermissions: 0o600])
    defer { try? FileManager.default.removeItem(atPath: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments =
      ["recover", "--mnemonic-file", file, "--threads", "2", "--json"]
      + ["--peer-id", other.ipfs.peerID.base58] + options
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // Exit 4: every candidate searched, none matched, as intended.
    guard process.terminationStatus == 4,
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let checked = (json["checked"] as? NSNumber)?.doubleValue,
      let seconds = (json["seconds"] as? NSNumber)?.doubleValue, seconds > 0
    else {
      FileHandle.standardError.write(Data("\(name) \(label): recover failed\n".utf8))
      return
    }
    result.runs.append(
      .init(search: label, checked: checked, seconds: seconds, rate: checked / seconds))
    FileHandle.standardError.write(
      Data(
        "\(name), \(label): \(Int(checked)) checked in \(seconds) s, \(Int(checked / seconds))/s\n"
          .utf8))
  }
  let best = searches.map { search in
    result.runs.filter { $0.search == search.0 }.map(\.rate).max() ?? 0
  }
  if best.allSatisfy({ $0 > 0 }) {
    result.orderOverDamage = best[1] / best[0]
    FileHandle.standardError.write(
      Data(
        (name
          + String(
            format: ": order lost at %.3f× the damage search's rate (goal ≥ 0.95)\n",
            result.orderOverDamage!)).utf8))
  }
  report.recoverOrderLost = result
}

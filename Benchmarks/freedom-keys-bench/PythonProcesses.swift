import Foundation

/// Runs `script` with python3 in `count` processes at once and returns the numbers each printed,
/// or nil when one failed, printed none, or python3 is missing.
func pythonNumbers(_ script: String, processes count: Int) -> [[Double]]? {
  let processes = (0..<count).map { _ -> (Process, Pipe)? in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    return (process, pipe)
  }
  var outputs: [[Double]] = []
  for case (let process, let pipe)? in processes {
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let numbers = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
      .compactMap { Double($0) }
    if process.terminationStatus == 0, !numbers.isEmpty { outputs.append(numbers) }
  }
  return outputs.count == count ? outputs : nil
}

/// The numbers `script` prints under python3, in one process.
func pythonNumbers(_ script: String) -> [Double]? { pythonNumbers(script, processes: 1)?.first }

/// The sum over `count` processes at once of the one number `script` prints in each.
func pythonSum(_ script: String, processes count: Int) -> Double? {
  pythonNumbers(script, processes: count).map { $0.map { $0[$0.count - 1] }.reduce(0, +) }
}

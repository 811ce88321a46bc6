import CryptoPrimitives
import Foundation
import TestSupport
import Testing

/// `--engine` and `--device` on both searches: the OpenCL engine (PoCL's CPU device in CI)
/// finds the same match, counts the same candidates and exhausts the same search as the CPU
/// engine; without an OpenCL device, `--engine opencl` is one line of refusal and `auto` is
/// the CPU engine, silently.
@Suite("recover --engine")
struct RecoverEngineTests {
  static let hasOpenCLDevice = (try? OpenCLDevice.all()) != nil

  func recover(_ options: [String], stdin: String = RecoverTests.damaged) throws -> CLIRun {
    try CLI.run(["recover", "--mnemonic-file", "-", "--threads", "2"] + options, stdin: stdin)
  }

  /// The environment with an OpenCL loader that finds no driver (an empty vendors directory).
  static func withoutOpenCLDevice(_ dir: TemporaryDirectory) throws -> [String: String] {
    let vendors = dir.url.appendingPathComponent("icd").path
    try FileManager.default.createDirectory(atPath: vendors, withIntermediateDirectories: true)
    var environment = ProcessInfo.processInfo.environment
    environment["OCL_ICD_VENDORS"] = vendors
    return environment
  }

  @Test func noDeviceIsOneLineForOpenCLAndTheCPUForAuto() throws {
    let dir = try TemporaryDirectory()
    let environment = try Self.withoutOpenCLDevice(dir)
    let swarm = RecoverTests.field(
      try RecoverTests.identities(RecoverTests.truth), "swarm", "address")
    let arguments = ["recover", "--mnemonic-file", "-", "--threads", "2", "--address", swarm]
    let refused = try CLI.run(
      arguments + ["--engine", "opencl"], stdin: RecoverTests.damaged, environment: environment)
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr.hasPrefix("freedom-keys: error: --engine opencl ")
        && refused.stderr.hasSuffix("or give --engine cpu\n")
        && refused.stderr.filter { $0 == "\n" }.count == 1, "\(refused.stderr)")
    #expect(!refused.stderr.contains("legal"))
    let auto = try CLI.run(arguments, stdin: RecoverTests.damaged, environment: environment)
    let cpu = try CLI.run(
      arguments + ["--engine", "cpu"], stdin: RecoverTests.damaged, environment: environment)
    #expect(auto.status == 0 && cpu.status == 0)
    #expect(auto.stdout == cpu.stdout)
    #expect(auto.stdout.hasPrefix("word 3 is 'thank' (was 'th*')\n"))
    #expect(auto.stderr.hasPrefix("engine: ") && !auto.stderr.contains("OpenCL"))
    // The password search refuses the same way, before any password is read.
    let password = try CLI.run(
      [
        "recover", "password", "--vault", RecoverPasswordTests.shiftedVault, "--password-file",
        "-", "--engine", "opencl",
      ], stdin: "correct horse battery staple\n", environment: environment)
    #expect(password.status == 1 && password.stdout == "")
    #expect(password.stderr.hasPrefix("freedom-keys: error: --engine opencl "))
  }

  @Test(arguments: [
    (["--engine", "cpu", "--device", "1"], "--device <n> names an OpenCL device"),
    (["--engine", "gpu"], "--engine <kind> must be auto, cpu or opencl"),
    (["--device", "0"], "--device <n> must be a whole number from 1 to 64"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = try recover(["--address", "0x0000000000000000000000000000000000000000"] + arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("freedom-keys: error: \(message)"), "\(run.stderr)")
  }

  /// 24 French and Japanese words, one unknown, with a 120-byte passphrase (the salt crosses
  /// SHA-512's block): the same phrase and counts from both engines, the first line naming the
  /// device.
  @Test(
    .enabled(if: hasOpenCLDevice, "no OpenCL device (install pocl-opencl-icd)"),
    arguments: ["french", "japanese"])
  func findsTheSameMatchAsTheCPU(language: String) throws {
    let dir = try TemporaryDirectory()
    let generated = try CLI.run(["mnemonic", "generate", "--words", "24", "--language", language])
    let phrase = generated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let separator = language == "japanese" ? "\u{3000}" : " "
    var words = phrase.components(separatedBy: separator)
    #expect(words.count == 24)
    let passphrase = try dir.file("passphrase", String(repeating: "0123456789", count: 12))
    let derived = try CLI.run(
      ["derive", "--mnemonic-file", "-", "--passphrase-file", passphrase, "--json"],
      stdin: phrase + "\n")
    let identities = try #require(
      JSONSerialization.jsonObject(with: Data(derived.stdout.utf8)) as? [String: Any])
    let address = RecoverTests.field(identities, "wallet", "address")
    words[17] = "?"
    let damaged = words.joined(separator: separator) + "\n"
    var runs: [CLIRun] = []
    for engine in ["cpu", "opencl"] {
      // One thread: the counts up to the match are then the same on every run.
      runs.append(
        try CLI.run(
          [
            "recover", "--mnemonic-file", "-", "--threads", "1", "--address", address,
            "--passphrase-file", passphrase, "--typos", "0", "--json",
            "--language", language, "--engine", engine,
          ], stdin: damaged))
    }
    for run in runs { #expect(run.status == 0, "\(run.stderr)") }
    let (cpu, openCL) = (try Self.json(runs[0]), try Self.json(runs[1]))
    #expect(cpu["found"] as? Bool == true)
    for key in ["found", "candidates", "checksumValid", "checked", "matched"] {
      #expect("\(cpu[key] ?? "-")" == "\(openCL[key] ?? "-")", "\(key)")
    }
    let changes = try #require(cpu["changes"] as? [[String: Any]])
    #expect(changes.count == 1 && changes[0]["position"] as? Int == 18)
    #expect((cpu["changes"] as? NSArray)?.isEqual(openCL["changes"]) == true)
    #expect(runs[0].stderr.hasPrefix("engine: ") && !runs[0].stderr.hasPrefix("engine: OpenCL"))
    #expect(runs[1].stderr.hasPrefix("engine: OpenCL device "), "\(runs[1].stderr)")
  }

  /// Two words unknown (15 × 2048 candidates), no match: both engines search all of them and
  /// count the same, exit 4.
  @Test(.enabled(if: hasOpenCLDevice, "no OpenCL device (install pocl-opencl-icd)"))
  func anExhaustedSearchAgreesWithTheCPU() throws {
    let address = RecoverTests.field(
      try RecoverTests.identities(RecoverTests.other), "wallet", "address")
    let damaged = "legal winner th* year wave sausage worth useful legal winner thank ?\n"
    var results: [[String: Any]] = []
    for engine in ["cpu", "opencl"] {
      let run = try recover(
        ["--address", address, "--typos", "0", "--json", "--engine", engine], stdin: damaged)
      #expect(run.status == 4, "\(run.stderr)")
      results.append(try Self.json(run))
    }
    #expect(results[0]["candidates"] as? Int == 15 * 2048)
    for key in ["found", "candidates", "checksumValid", "checked"] {
      #expect("\(results[0][key] ?? "-")" == "\(results[1][key] ?? "-")", "\(key)")
    }
    #expect((results[0]["checked"] as? Int ?? 0) > 1000)
  }

  /// Ed25519 targets (the SLIP-0010 chain derived on the device after the seed, only keys
  /// coming back; beside an address, the seeds too), the last word unknown (128 phrases pass
  /// the checksum): the same match and counts from both engines, and a PeerID of another
  /// phrase exhausts the same search.
  @Test(
    .enabled(if: hasOpenCLDevice, "no OpenCL device (install pocl-opencl-icd)"),
    arguments: ["peer-id", "did", "address and peer-id", "exhausted"])
  func ed25519TargetsAgreeWithTheCPU(targets: String) throws {
    let truth = try RecoverTests.identities(RecoverTests.truth)
    let other = try RecoverTests.identities(RecoverTests.other)
    let options: [String] =
      switch targets {
      case "peer-id": ["--peer-id", RecoverTests.field(truth, "ipfs", "peerId")]
      case "did": ["--did", RecoverTests.field(truth, "radicle", "did")]
      case "address and peer-id":
        [
          "--address", RecoverTests.field(other, "wallet", "address"), "--peer-id",
          RecoverTests.field(truth, "ipfs", "peerId"),
        ]
      default: ["--peer-id", RecoverTests.field(other, "ipfs", "peerId")]
      }
    let damaged = "legal winner thank year wave sausage worth useful legal winner thank ?\n"
    var results: [[String: Any]] = []
    for engine in ["cpu", "opencl"] {
      // One thread: the counts up to the match are then the same on every run.
      let run = try CLI.run(
        ["recover", "--mnemonic-file", "-", "--threads", "1", "--typos", "0", "--json"]
          + options + ["--engine", engine], stdin: damaged)
      #expect(run.status == (targets == "exhausted" ? 4 : 0), "\(run.stderr)")
      #expect(run.stderr.hasPrefix("engine: OpenCL device ") == (engine == "opencl"))
      results.append(try Self.json(run))
    }
    #expect(results[0]["candidates"] as? Int == 2048)
    #expect(results[0]["found"] as? Bool == (targets != "exhausted"))
    for key in ["found", "candidates", "checksumValid", "checked", "matched", "searched"] {
      #expect("\(results[0][key] ?? "-")" == "\(results[1][key] ?? "-")", "\(key)")
    }
    #expect((results[0]["changes"] as? NSArray)?.isEqual(results[1]["changes"]) ?? true)
  }

  /// A vault password found among passwords of mixed lengths (the one of 27 bytes, others of
  /// 2 to 80, 76 among them): the same password, the same count, from both engines.
  @Test(.enabled(if: hasOpenCLDevice, "no OpenCL device (install pocl-opencl-icd)"))
  func passwordSearchAgreesWithTheCPU() throws {
    let dir = try TemporaryDirectory()
    let list =
      (1...40).map { String(repeating: "x", count: 2 * $0) }.joined(separator: "\n")
      + "\nCorrect horse battery stapl\n"
      + String(repeating: "y", count: 76) + "\n"
    let candidates = try dir.file("list", list)
    var runs: [CLIRun] = []
    for engine in ["cpu", "opencl"] {
      runs.append(
        try CLI.run([
          "recover", "password", "--threads", "2", "--vault", RecoverPasswordTests.shiftedVault,
          "--password-candidates", candidates, "--engine", engine,
        ]))
    }
    for run in runs { #expect(run.status == 0, "\(run.stderr)") }
    #expect(runs[0].stdout == runs[1].stdout)
    #expect(runs[0].stdout.hasPrefix("the password is password candidate line 41\n"))
    #expect(runs[1].stderr.hasPrefix("engine: OpenCL device "), "\(runs[1].stderr)")
    #expect(!runs[0].stderr.hasPrefix("engine: OpenCL"))
  }

  static func json(_ run: CLIRun) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
  }
}

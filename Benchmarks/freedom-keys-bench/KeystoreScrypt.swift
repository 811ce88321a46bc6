// A bee keystore's password search against bare libsodium (issue 27): `freedom-keys recover
// password --keystore` over candidates none of which is the password, as a process on every
// core (wall clock, start-up included), beside libsodium's scrypt (n = 2^15, r = 8, p = 1, as
// bee and antd write it) called through ctypes in one Python process a core (timed inside the
// processes, so without their start-up). The goal is ≥ 0.9× the bare calls.

import CryptoPrimitives
import Foundation
import VaultKeys

struct KeystoreScryptReport: Encodable {
  /// Passwords per second, every core.
  var ours = 0.0
  var bareLibsodium: Double?
  var oursVsBare: Double?
}

@MainActor func keystoreScryptAgainstLibsodium() throws {
  let name = "keystore scrypt against libsodium: recover password --keystore, n=2^15"
  if let filter, !name.contains(filter) { return }
  guard let binary = freedomKeysBinary() else { return }
  let cores = ProcessInfo.processInfo.activeProcessorCount
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("freedom-keys-bench-scrypt-\(getpid())").path
  try FileManager.default.createDirectory(
    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  defer { try? FileManager.default.removeItem(atPath: directory) }

  let key = try Secp256k1.PrivateKey(
    rawRepresentation: SecureBytes([UInt8](repeating: 3, count: 32)))
  let keystore = try Web3Keystore.encrypt(privateKey: key, password: SecureBytes(utf8: "not tried"))
  let keystorePath = directory + "/swarm.key"
  let candidatesPath = directory + "/candidates"
  let count = 40 * cores
  _ = FileManager.default.createFile(
    atPath: keystorePath, contents: Data(keystore), attributes: [.posixPermissions: 0o600])
  _ = FileManager.default.createFile(
    atPath: candidatesPath,
    contents: Data((0..<count).map { "candidate \($0)\n" }.joined().utf8),
    attributes: [.posixPermissions: 0o600])

  var result = KeystoreScryptReport()
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binary)
  process.arguments = [
    "recover", "password", "--keystore", keystorePath, "--password-candidates", candidatesPath,
    "--json",
  ]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  let start = now(CLOCK_MONOTONIC)
  try process.run()
  process.waitUntilExit()
  let ms = now(CLOCK_MONOTONIC) - start
  // Exit 4: exhausted, as intended.
  guard process.terminationStatus == 4 else {
    FileHandle.standardError.write(Data("\(name): recover password failed\n".utf8))
    return
  }
  result.ours = Double(count) * 1000 / ms

  let script = """
    import ctypes, time
    sodium = ctypes.CDLL('libsodium.so.23')
    assert sodium.sodium_init() >= 0  # picks the SSE2 code, as every caller of libsodium does
    out = ctypes.create_string_buffer(32)
    salt = bytes(32)
    t = time.monotonic()
    for i in range(20):
        password = b'candidate %d' % i
        assert sodium.crypto_pwhash_scryptsalsa208sha256_ll(
            password, ctypes.c_size_t(len(password)), salt, ctypes.c_size_t(32),
            ctypes.c_uint64(1 << 15), ctypes.c_uint32(8), ctypes.c_uint32(1), out,
            ctypes.c_size_t(32)) == 0
    print(20 / (time.monotonic() - t))
    """
  result.bareLibsodium = pythonSum(script, processes: cores)
  result.oursVsBare = result.bareLibsodium.map { result.ours / $0 }
  FileHandle.standardError.write(
    Data(
      ("\(name): ours " + String(format: "%.1f", result.ours)
        + "/s on \(cores) cores, bare libsodium "
        + (result.bareLibsodium.map { String(format: "%.1f/s", $0) } ?? "unavailable")
        + (result.oursVsBare.map { String(format: " → %.2f×", $0) } ?? "") + "\n").utf8))
  report.keystoreScrypt = result
}

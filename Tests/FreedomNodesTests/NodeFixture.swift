import CryptoPrimitives
import Foundation
import FreedomNodes
import VaultKeys

/// A scratch directory and the published test mnemonics' profiles, for in-process tests.
final class NodeFixture {
  static let abandon = try! Mnemonic(
    phrase: SecureBytes(
      utf8: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        + "abandon about"))
  static let junk = try! Mnemonic(
    phrase: SecureBytes(utf8: "test test test test test test test test test test test junk"))
  static let profile = try! FreedomProfile(mnemonic: abandon)
  static let other = try! FreedomProfile(mnemonic: junk)

  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "freedom-nodes-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  func path(_ name: String) -> String { root + "/" + name }

  /// Writes `text` at `name` (parents created).
  @discardableResult
  func file(_ name: String, _ text: String) throws -> String {
    try bytes(name, Array(text.utf8))
  }

  @discardableResult
  func bytes(_ name: String, _ content: [UInt8]) throws -> String {
    let full = path(name)
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(content).write(to: URL(fileURLWithPath: full))
    return full
  }

  func read(_ name: String) -> String? {
    (try? Data(contentsOf: URL(fileURLWithPath: path(name)))).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// A keystore of `profile`'s Swarm key under `password`, cheap to open (scrypt n=1024).
  static func keystore(_ profile: FreedomProfile, password: String) throws -> [UInt8] {
    try Web3Keystore.encrypt(
      privateKey: profile.swarm.privateKey, password: SecureBytes(utf8: password), scryptN: 1024)
  }
}

/// The conflicts `body` was refused with, or nil when it was not refused (another error is
/// rethrown).
func refusal(_ body: () throws(NodeError) -> Void) throws -> [NodeConflict]? {
  do {
    try body()
    return nil
  } catch {
    if case .refused(let conflicts) = error { return conflicts }
    throw error
  }
}

import CryptoPrimitives
import FreedomNodes
import VaultKeys

/// antd's config.yaml: never crashes; a file that reads can have its password set, and the
/// result reads back with the new password, the same `password-file` and `data-dir`, and
/// every other byte kept (one changed run on one line, or one line appended).
let newPasswords = ["fuzz-Pass_1", "needs \"quotes\" and 'these'", "12345", "#hash: colon"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = bytes(data, size)
  guard let config = try? AntdConfig(yaml: SecureBytes(input)) else { return 0 }
  let password = newPasswords[input.count % newPasswords.count]
  let edited: SecureBytes
  do {
    edited = try config.settingPassword(SecureBytes(Array(password.utf8)))
  } catch .unsupported(_, line: 0) {
    return 0  // a block scalar at the end without a final line break: refused, not changed
  } catch {
    require(false, "settingPassword refused a file that reads: \(error)")
    return 0
  }
  let output = edited.withUnsafeBytes { Array($0) }
  let reread: AntdConfig
  do {
    reread = try AntdConfig(yaml: edited)
  } catch {
    require(false, "the edited file does not read: \(error)")
    return 0
  }
  require(
    reread.password.map { Array($0.withUnsafeBytes { Array($0) }) } == Array(password.utf8),
    "the new password does not read back")
  require(reread.passwordFile == config.passwordFile, "password-file changed")
  require(reread.dataDir == config.dataDir, "data-dir changed")
  let prefix = zip(input, output).prefix { $0 == $1 }.count
  let suffix = zip(input[prefix...].reversed(), output[prefix...].reversed()).prefix { $0 == $1 }
    .count
  let removed = input[prefix..<(input.count - suffix)]
  let inserted = output[prefix..<(output.count - suffix)]
  let inPlace = !removed.contains(0x0A) && !inserted.contains(0x0A)
  let appended = Array(output.prefix(input.count)) == input
  require(inPlace || appended, "more than the value's bytes or one appended line changed")
  return 0
}

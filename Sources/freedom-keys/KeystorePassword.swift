import CommandLineKit
import CryptoPrimitives
import FreedomNodes
import SystemCalls

/// The password of a Web3 keystore, read from a file exactly as bee reads `--password-file`:
/// the whole content with every leading and trailing line feed removed (Go's
/// `bytes.Trim(b, "\n")`); a carriage return or a space stays part of the password.
enum KeystorePassword {
  /// The password in the file at `path`; "-" is standard input, or a prompt with echo off when
  /// standard input is a terminal (asked twice when it `isNew`: an export encrypts with it).
  static func read(_ path: String, isNew: Bool = false) throws -> SecureBytes {
    if path == "-", SecretInput.standardInputIsTerminal {
      let source = SecretSource(role: "keystore password", path: nil, isNew: isNew)
      let typed = try SecretInput.prompt(
        "Enter the keystore password (input hidden): ", for: source)
      guard typed.count > 0 else { throw CLIError.failure("no keystore password was entered") }
      return typed
    }
    let source = SecretSource(role: "password", path: path)
    // SecretInput drops a byte order mark, which bee's rule refuses: it is looked for first.
    if path != "-", startsWithByteOrderMark(path) {
      throw CLIError.failure("\(source) \(Bee.PasswordFileProblem.byteOrderMark.reason)")
    }
    let content = try SecretInput.read(source)
    do {
      return try Bee.password(fromFile: content)
    } catch {
      throw CLIError.failure("\(source) \(error.reason)")
    }
  }

  /// Refuses `--password-file -` when standard input is a pipe that another input of `input`
  /// also reads, or while a prompt for the mnemonic or the vault password would need it. (On a
  /// terminal each "-" is asked for at its own hidden prompt.)
  static func checkStandardInput(
    passwordPath: String?, input: MnemonicOptions, arguments: ParsedArguments
  ) throws(CLIError) {
    guard passwordPath == "-", !SecretInput.standardInputIsTerminal else { return }
    let readers: [(Option, String?)] = [
      (MnemonicOptions.mnemonicFile, input.mnemonicPath),
      (MnemonicOptions.vaultFile, input.vaultPath),
      (MnemonicOptions.vaultPasswordFile, input.vaultPasswordPath),
      (MnemonicOptions.passphraseFile, input.passphrasePath),
    ]
    if let other = readers.first(where: { $0.1 == "-" }) {
      throw arguments.usage(
        "--password-file and --\(other.0.name) cannot both read standard input")
    }
    if input.mnemonicPath == nil, input.vaultPath == nil {
      throw arguments.usage(
        "--password-file - needs --mnemonic-file PATH: the mnemonic cannot be asked for while "
          + "standard input carries the password")
    }
    if input.vaultPath != nil, input.vaultPasswordPath == nil {
      throw arguments.usage(
        "--password-file - needs --vault-password-file PATH: the vault password cannot be asked "
          + "for while standard input carries the password")
    }
  }

  private static func startsWithByteOrderMark(_ path: String) -> Bool {
    let descriptor = Platform.open(path: path, Platform.readOnly | Platform.nonBlocking)
    guard descriptor >= 0 else { return false }  // SecretInput reports why it cannot be read
    defer { _ = Platform.close(descriptor) }
    // Only a regular file can be peeked at without taking bytes from the reader after us.
    guard let info = Platform.info(descriptor), info.type == Platform.regularFileType else {
      return false
    }
    var head: [UInt8] = [0, 0, 0]
    let count = head.withUnsafeMutableBytes { Platform.read(descriptor, $0) }
    return count == 3 && head == [0xEF, 0xBB, 0xBF]
  }
}

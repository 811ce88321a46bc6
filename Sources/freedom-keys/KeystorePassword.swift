import CommandLineKit
import CryptoPrimitives
import FreedomNodes

/// The password of a Web3 keystore, read from a file exactly as bee reads `--password-file`:
/// the whole content with every leading and trailing line feed removed (Go's
/// `bytes.Trim(b, "\n")`); a carriage return or a space stays part of the password.
enum KeystorePassword {
  /// The password in the file at `path`; "-" is standard input, or a prompt with echo off when
  /// standard input is a terminal (asked twice when it `isNew`: an export encrypts with it).
  /// `allowsEmpty`: a file holding no password (or only line feeds) is the empty password, as
  /// a keystore may have one (a check of it, never a new keystore).
  static func read(_ path: String, isNew: Bool = false, allowsEmpty: Bool = false) throws
    -> SecureBytes
  {
    if path == "-", SecretInput.standardInputIsTerminal {
      let source = SecretSource(role: "keystore password", path: nil, isNew: isNew)
      let typed = try SecretInput.prompt(
        "Enter the keystore password (input hidden): ", for: source)
      guard typed.count > 0 else { throw CLIError.failure("no keystore password was entered") }
      return typed
    }
    let source = SecretSource(role: "password", path: path)
    // Bee keeps a byte order mark as part of the password, and its rule refuses one in a file.
    let content = try SecretInput.read(
      source, keepsByteOrderMark: path != "-", warning: { Output.warning($0) })
    do {
      return try Bee.password(fromFile: content)
    } catch .empty where allowsEmpty {
      return Bee.trimmingLineFeeds(content)
    } catch {
      throw CLIError.failure("\(source) \(error.reason)")
    }
  }
}

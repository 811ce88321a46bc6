import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// antd's `config.yaml` (the bee-compatible YAML file desktop Freedom writes into
/// `<userData>/ant-data/` and starts `antd --config=<file>` with), as far as the node identity
/// is concerned: the keystore password and where the data directory is.
///
/// antd (crates/antd/src/config.rs) reads the file with serde_yaml into optional strings
/// `password`, `password-file` and `data-dir` (the password is `password:`, else the content
/// of the file `password-file:` names with trailing CR/LF removed). This type reads those
/// keys from a top-level YAML block mapping as serde_yaml and PyYAML do — a UTF-8 BOM, CRLF,
/// comments, a mapping indented as a whole, spaces around the colon, quoted keys, plain,
/// single- and double-quoted scalars with YAML's escapes — and refuses, naming the line, any
/// shape it cannot read or edit safely (see `AntdConfigScanner`) and any duplicate key, which
/// antd refuses too. An empty password is refused. The file holds a secret, so it is kept in
/// a `SecureBytes`.
package struct AntdConfig: Sendable {
  /// The largest file read; desktop's is under 1 KiB.
  package static let maxByteCount = 1 << 20
  /// The byte length of the passwords `generatePassword()` makes (64 hex digits, as desktop's).
  package static let generatedPasswordByteCount = 64

  /// The file as read.
  package let bytes: SecureBytes
  /// The `password:` value as antd reads it; nil when the key is absent or null.
  package let password: SecureBytes?
  /// The `password-file:` value, when present.
  package let passwordFile: String?
  /// The `data-dir:` value, when present: antd uses this directory, not the file's own.
  package let dataDir: String?
  /// Where the edit goes and how an appended line looks.
  private let layout: AntdConfigScanner.Result

  /// Parses `yaml`, the bytes of a `config.yaml`.
  package init(yaml input: some ContiguousBytes) throws(AntdConfigError) {
    // It may hold the password: kept in zeroizing memory (a SecureBytes is taken as it is).
    let yaml = input as? SecureBytes ?? SecureBytes(input)
    guard yaml.count <= Self.maxByteCount else { throw .tooLarge }
    let scanned: Result<AntdConfigScanner.Result, AntdConfigError> = yaml.withUnsafeBytes { raw in
      do throws(AntdConfigError) {
        var scanner = AntdConfigScanner(raw)
        return .success(try scanner.scan())
      } catch {
        return .failure(error)
      }
    }
    var scan = try scanned.get()
    bytes = yaml
    password = scan.password
    passwordFile = scan.passwordFile
    dataDir = scan.dataDir
    scan.password = nil
    layout = scan
  }

  /// The file with its `password:` value set to `newPassword`: only the value's bytes change
  /// (a quoted value stays quoted the same way; a plain one stays plain when it can), and a
  /// `password:` line is appended at the mapping's indentation when there is none.
  package func settingPassword(_ newPassword: SecureBytes) throws(AntdConfigError) -> SecureBytes {
    switch layout.passwordSlot {
    case .scalar(let range, let style):
      let value = try Self.encodedValue(newPassword, style: style)
      return bytes[0..<range.lowerBound] + value + bytes[range.upperBound..<bytes.count]
    case .empty(let offset):
      let value = try Self.encodedValue(newPassword, style: .plain)
      return bytes[0..<offset] + SecureBytes(Array(" ".utf8)) + value
        + bytes[offset..<bytes.count]
    case .absent:
      let value = try Self.encodedValue(newPassword, style: .plain)
      if !layout.endsWithLineBreak && layout.endsInBlockScalar {
        // A line break after a block scalar's last line would become part of its value.
        throw .unsupported(
          "a block scalar at the end of the file without a final line break", line: 0)
      }
      // LF, as before (YAML reads a mix of LF and CR LF the same way).
      let lineBreak = SecureBytes(Array("\n".utf8))
      let indent = SecureBytes(Array(repeating: UInt8(ascii: " "), count: layout.indentation))
      let empty = bytes.count == 0 || bytes == SecureBytes([0xEF, 0xBB, 0xBF])
      return bytes + (layout.endsWithLineBreak || empty ? SecureBytes([]) : lineBreak) + indent
        + SecureBytes(Array("password: ".utf8)) + value + lineBreak
    }
  }

  /// A new config.yaml that holds only `password: <newPassword>`.
  package static func fresh(password newPassword: SecureBytes) throws(AntdConfigError)
    -> SecureBytes
  {
    line(try encodedValue(newPassword))
  }

  /// A new random password as desktop Freedom makes one: 32 random bytes as 64 lowercase hex
  /// digits. Drawn again until it holds a letter other than `e`, so that YAML can never read it
  /// as a number (the chance of a redraw is below 10⁻¹⁰).
  package static func generatePassword() -> SecureBytes {
    while true {
      let random = SecureRandom.secret(count: generatedPasswordByteCount / 2)
      let text = SecureBytes(count: generatedPasswordByteCount) { out in
        var cursor = SecureByteCursor(out)
        random.withUnsafeBytes { cursor.appendHex($0) }
      }
      let unambiguous = text.withUnsafeBytes { raw in
        raw.contains { (0x61...0x66).contains($0) && $0 != UInt8(ascii: "e") }
      }
      if unambiguous { return text }
    }
  }

  /// A `password-file`'s content as antd reads it: trailing CR and LF bytes removed.
  package static func passwordFromFile(_ content: SecureBytes) -> SecureBytes {
    let kept = content.withUnsafeBytes { raw -> Int in
      var end = raw.count
      while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
      return end
    }
    return content[0..<kept]
  }

  // MARK: - Writing

  private static func line(_ value: SecureBytes) -> SecureBytes {
    SecureBytes(Array("password: ".utf8)) + value + SecureBytes(Array("\n".utf8))
  }

  /// `password` as a YAML scalar that antd and desktop's line reader both read back unchanged:
  /// single-quoted when `style` is, plain when `style` is plain and it is made of safe
  /// characters that cannot be taken for a number, boolean or null; double-quoted otherwise.
  private static func encodedValue(
    _ password: SecureBytes, style: AntdConfigScanner.Style = .plain
  ) throws(AntdConfigError) -> SecureBytes {
    let checked: Result<Bool, AntdConfigError> = password.withUnsafeBytes { raw in
      guard !raw.isEmpty else { return .failure(.emptyPassword) }
      guard raw.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else {
        return .failure(.controlCharacterInPassword)
      }
      guard isValidUTF8(raw) else { return .failure(.passwordNotUTF8) }
      return .success(isSafePlain(raw))
    }
    if try checked.get(), style == .plain { return password }
    let quote = style == .singleQuoted ? UInt8(ascii: "'") : UInt8(ascii: "\"")
    func needsEscape(_ byte: UInt8) -> Bool {
      style == .singleQuoted
        ? byte == quote : byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
    let extra = password.withUnsafeBytes { raw in raw.count(where: needsEscape) }
    return SecureBytes(count: password.count + extra + 2) { out in
      var cursor = SecureByteCursor(out)
      cursor.append(quote)
      password.withUnsafeBytes { raw in
        for byte in raw {
          if needsEscape(byte) {
            cursor.append(style == .singleQuoted ? quote : UInt8(ascii: "\\"))
          }
          cursor.append(byte)
        }
      }
      cursor.append(quote)
    }
  }

  private static func isSafePlain(_ raw: UnsafeRawBufferPointer) -> Bool {
    func isAlphanumeric(_ byte: UInt8) -> Bool {
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    let punctuation = Array("_.-+/=~".utf8)
    guard let first = raw.first, isAlphanumeric(first),
      raw.allSatisfy({ isAlphanumeric($0) || punctuation.contains($0) })
    else { return false }
    return !resolvesToNonString(
      String(decoding: raw, as: UTF8.self))
  }

  static func isValidUTF8(_ raw: UnsafeRawBufferPointer) -> Bool {
    var iterator = raw.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// Whether YAML would resolve the plain scalar to a boolean, a number, a timestamp or null —
  /// YAML 1.1's wider sets included (sexagesimal, `0777`, `1_000`, `yes`/`no`, `2001-12-14`) —
  /// which antd might then not accept as the password string.
  package static func resolvesToNonString(_ word: String) -> Bool {
    let keywords = [
      "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", "+.inf",
      ".nan",
    ]
    if keywords.contains(word.lowercased()) { return true }
    let patterns = [
      #"[-+]?[0-9][0-9_]*"#,  // decimal, YAML 1.1 underscores
      #"[-+]?0[0-7_]+|0o[0-7]+"#,  // octal
      #"[-+]?0x[0-9a-fA-F_]+"#,  // hexadecimal
      #"[-+]?0b[01_]+"#,  // binary
      #"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?"#,  // sexagesimal
      #"[-+]?(\.[0-9_]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?"#,  // float
      #"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt \t].*)?"#,  // timestamp (PyYAML makes a date)
    ]
    return patterns.contains { pattern in
      (try? Regex(pattern).wholeMatch(in: word)) != nil
    }
  }

}

/// Why an antd `config.yaml` could not be read or edited. Never quotes a password; `line` is
/// the 1-based line the problem is on (0: the end of the file).
package enum AntdConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is larger than 1 MiB.
  case tooLarge
  /// The file is not UTF-8 text (antd refuses to read it).
  case notUTF8
  /// A top-level key appears twice (antd's serde_yaml and PyYAML refuse that too).
  case duplicateKey(String, line: Int)
  /// A YAML shape this tool does not read or cannot edit safely; the reason names it.
  case unsupported(String, line: Int)
  /// The plain `password:` value could be read by YAML as a number, boolean, date or null.
  case ambiguousPassword(line: Int)
  /// The plain value of `password-file:` or `data-dir:` could be read by YAML as another type.
  case ambiguousValue(key: String, line: Int)
  /// The file's `password:` is an empty string, which would encrypt with no password.
  case emptyPasswordInFile(line: Int)
  /// An empty password cannot be written.
  case emptyPassword
  /// The password holds a control character (a line break, a tab, NUL …).
  case controlCharacterInPassword
  /// The password is not valid UTF-8, which a YAML file must be.
  case passwordNotUTF8

  package var description: String {
    switch self {
    case .tooLarge: "config.yaml is larger than 1 MiB"
    case .notUTF8: "config.yaml is not UTF-8 text, which antd needs; save it as UTF-8"
    case .duplicateKey(let key, let line):
      "line \(line) has '\(key):' a second time, which antd refuses; keep one"
    case .unsupported(let shape, let line):
      (line > 0 ? "line \(line) holds " : "the file ends with ")
        + "\(shape), which this tool cannot read or edit safely; write antd's keys as "
        + "`key: value` on one line each"
    case .ambiguousPassword(let line):
      "line \(line): the password could be read by YAML as a number, boolean, date or null; "
        + "put it in double quotes"
    case .ambiguousValue(let key, let line):
      "line \(line): the value of '\(key)' could be read by YAML as a number, boolean or date; "
        + "put it in double quotes"
    case .emptyPasswordInFile(let line):
      "line \(line) sets an empty password, which would leave the keystore without one; "
        + "remove the line or give a password"
    case .emptyPassword: "the password is empty"
    case .controlCharacterInPassword:
      "the password holds a control character (line break, tab …), which config.yaml cannot hold"
    case .passwordNotUTF8: "the password is not valid UTF-8 text"
    }
  }
}

import CryptoPrimitives

/// antd's `config.yaml` (the bee-compatible YAML file desktop Freedom writes into
/// `<userData>/ant-data/` and starts `antd --config=<file>` with), as far as the node identity
/// is concerned: the keystore password and where the data directory is.
///
/// antd parses the file with serde_yaml; the keystore password is the `password:` value, else
/// the content of the file named by `password-file:` with trailing CR/LF removed. Desktop
/// Freedom's ant-manager rewrites the whole file on every start, keeping only the first line
/// that matches `^password:\s*(.+)$` (trimmed). This type reads the one-line forms both agree on
/// — plain, single-quoted and double-quoted scalars on the key's own line — and refuses every
/// other shape (block scalars, anchors, flow mappings, continuation lines) rather than guessing
/// a password. The file holds a secret, so it is kept in a `SecureBytes`.
public struct AntdConfig: Sendable {
  /// The largest file read; desktop's is under 1 KiB.
  public static let maxByteCount = 1 << 20
  /// The byte length of the passwords `generatePassword()` makes (64 hex digits, as desktop's).
  public static let generatedPasswordByteCount = 64

  /// The file as read.
  public let bytes: SecureBytes
  /// The `password:` value as antd reads it; nil when the key is absent or null.
  public let password: SecureBytes?
  /// The `password-file:` value, when present.
  public let passwordFile: String?
  /// The `data-dir:` value, when present: antd uses this directory, not the file's own.
  public let dataDir: String?
  /// Where the `password:` line is (its value range, up to the line ending), for the edit.
  private let passwordValueRange: Range<Int>?

  /// Parses `yaml`, the bytes of a `config.yaml`.
  public init(yaml: SecureBytes) throws(AntdConfigError) {
    guard yaml.count <= Self.maxByteCount else { throw .tooLarge }
    let scanned: Result<Scan, AntdConfigError> = yaml.withUnsafeBytes { raw in
      do throws(AntdConfigError) {
        return .success(try Self.scan(raw))
      } catch {
        return .failure(error)
      }
    }
    let scan = try scanned.get()
    bytes = yaml
    password = scan.password
    passwordFile = scan.passwordFile
    dataDir = scan.dataDir
    passwordValueRange = scan.passwordValueRange
  }

  /// The file with its `password:` value set to `newPassword`: every other byte is kept, and a
  /// `password:` line is appended when there is none.
  public func settingPassword(_ newPassword: SecureBytes) throws(AntdConfigError) -> SecureBytes {
    let value = try Self.encodedValue(newPassword)
    if let range = passwordValueRange {
      let before = bytes[0..<range.lowerBound]
      let after = bytes[range.upperBound..<bytes.count]
      return before + SecureBytes(Array(" ".utf8)) + value + after
    }
    let endsWithNewline = bytes.withUnsafeBytes { $0.last == UInt8(ascii: "\n") || $0.isEmpty }
    return bytes + SecureBytes(Array((endsWithNewline ? "" : "\n").utf8)) + Self.line(value)
  }

  /// A new config.yaml that holds only `password: <newPassword>`.
  public static func fresh(password newPassword: SecureBytes) throws(AntdConfigError)
    -> SecureBytes
  {
    line(try encodedValue(newPassword))
  }

  /// A new random password as desktop Freedom makes one: 32 random bytes as 64 lowercase hex
  /// digits. Drawn again until it holds a letter other than `e`, so that YAML can never read it
  /// as a number (the chance of a redraw is below 10⁻¹⁰).
  public static func generatePassword() -> SecureBytes {
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
  public static func passwordFromFile(_ content: SecureBytes) -> SecureBytes {
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
  /// plain when it is made of safe characters and cannot be taken for a number, boolean or
  /// null; double-quoted otherwise.
  private static func encodedValue(_ password: SecureBytes) throws(AntdConfigError) -> SecureBytes {
    let checked: Result<Bool, AntdConfigError> = password.withUnsafeBytes { raw in
      guard !raw.isEmpty else { return .failure(.emptyPassword) }
      guard raw.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else {
        return .failure(.controlCharacterInPassword)
      }
      guard validUTF8(raw) else { return .failure(.passwordNotUTF8) }
      return .success(isSafePlain(raw))
    }
    if try checked.get() { return password }
    let extra = password.withUnsafeBytes { raw in
      raw.count(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
    }
    return SecureBytes(count: password.count + extra + 2) { out in
      var cursor = SecureByteCursor(out)
      cursor.append(UInt8(ascii: "\""))
      password.withUnsafeBytes { raw in
        for byte in raw {
          if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            cursor.append(UInt8(ascii: "\\"))
          }
          cursor.append(byte)
        }
      }
      cursor.append(UInt8(ascii: "\""))
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

  private static func validUTF8(_ raw: UnsafeRawBufferPointer) -> Bool {
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

  // MARK: - Reading

  private struct Scan {
    var password: SecureBytes?
    var passwordFile: String?
    var dataDir: String?
    var passwordValueRange: Range<Int>?
  }

  private static func scan(_ raw: UnsafeRawBufferPointer) throws(AntdConfigError) -> Scan {
    var result = Scan()
    var seen: Set<String> = []
    var lineStart = 0
    var previousKey: String?
    var sawContent = false
    while lineStart < raw.count {
      var lineEnd = lineStart
      while lineEnd < raw.count, raw[lineEnd] != 0x0A { lineEnd += 1 }
      var contentEnd = lineEnd
      if contentEnd > lineStart, raw[contentEnd - 1] == 0x0D { contentEnd -= 1 }
      let line = lineStart..<contentEnd
      defer { lineStart = lineEnd + 1 }

      let first = line.first { raw[$0] != 0x20 && raw[$0] != 0x09 }
      guard let first, raw[first] != UInt8(ascii: "#") else { continue }
      if !sawContent {
        sawContent = true
        if raw[first] == UInt8(ascii: "{") { throw .unsupported("a flow mapping ({ … })") }
      }
      if first > line.lowerBound {
        // An indented line continues the previous key's value (a list or a folded scalar).
        if let previousKey, ["password", "password-file", "data-dir"].contains(previousKey) {
          throw .unsupported("the value of '\(previousKey)' continues on the next line")
        }
        continue
      }
      let quote = raw[first]
      if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") || quote == UInt8(ascii: "?") {
        let rest = text(raw, first..<line.upperBound)
        if ["password", "password-file", "data-dir"].contains(where: {
          rest.dropFirst().hasPrefix($0)
        }) {
          throw .unsupported("a quoted or complex key")
        }
        previousKey = nil
        continue
      }
      guard let colon = line.first(where: { raw[$0] == UInt8(ascii: ":") }),
        colon + 1 == line.upperBound || raw[colon + 1] == 0x20 || raw[colon + 1] == 0x09
      else {
        previousKey = nil
        continue
      }
      let key = text(raw, line.lowerBound..<colon)
      previousKey = key
      guard ["password", "password-file", "data-dir"].contains(key) else { continue }
      guard seen.insert(key).inserted else { throw .duplicateKey(key) }
      let valueRange = (colon + 1)..<line.upperBound
      let value = try scalar(raw, valueRange, key: key)
      switch key {
      case "password":
        result.passwordValueRange = valueRange
        result.password = value.map { SecureBytes(UnsafeRawBufferPointer(rebasing: raw[$0])) }
        if let escaped = escapedRange(raw, valueRange) {
          result.password = unescapeDoubleQuoted(raw, escaped)
        }
      case "password-file":
        result.passwordFile = value.map { text(raw, $0) }
      default:
        result.dataDir = value.map { text(raw, $0) }
      }
    }
    return result
  }

  /// The range of a scalar's content, or nil for null. Double-quoted values with escapes are
  /// decoded by the caller (`escapedRange`).
  private static func scalar(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, key: String)
    throws(AntdConfigError) -> Range<Int>?
  {
    var start = range.lowerBound
    while start < range.upperBound, raw[start] == 0x20 || raw[start] == 0x09 { start += 1 }
    guard start < range.upperBound, raw[start] != UInt8(ascii: "#") else { return nil }
    let opener = raw[start]
    if opener == UInt8(ascii: "\"") || opener == UInt8(ascii: "'") {
      var index = start + 1
      while index < range.upperBound {
        if opener == UInt8(ascii: "\"") && raw[index] == UInt8(ascii: "\\") {
          guard index + 1 < range.upperBound,
            raw[index + 1] == UInt8(ascii: "\"") || raw[index + 1] == UInt8(ascii: "\\")
          else { throw .unsupported("an escape other than \\\" or \\\\ in '\(key)'") }
          index += 2
          continue
        }
        if raw[index] == opener {
          if opener == UInt8(ascii: "'"), index + 1 < range.upperBound,
            raw[index + 1] == UInt8(ascii: "'")
          {
            throw .unsupported("a doubled quote ('') in '\(key)'")
          }
          break
        }
        index += 1
      }
      guard index < range.upperBound else {
        throw .unsupported("an unterminated quote in '\(key)'")
      }
      var after = index + 1
      while after < range.upperBound, raw[after] == 0x20 || raw[after] == 0x09 { after += 1 }
      guard after == range.upperBound || raw[after] == UInt8(ascii: "#") else {
        throw .unsupported("text after the quoted value of '\(key)'")
      }
      return (start + 1)..<index
    }
    let indicators = Array("[]{}&*!|>%@`,".utf8)
    guard !indicators.contains(opener),
      !(opener == UInt8(ascii: "-") && start + 1 < range.upperBound && raw[start + 1] == 0x20)
    else {
      throw .unsupported("a value of '\(key)' that is not a plain, single-line string")
    }
    var end = range.upperBound
    if let comment = (start..<range.upperBound).first(where: {
      raw[$0] == UInt8(ascii: "#") && (raw[$0 - 1] == 0x20 || raw[$0 - 1] == 0x09)
    }) {
      end = comment
    }
    while end > start, raw[end - 1] == 0x20 || raw[end - 1] == 0x09 { end -= 1 }
    let content = start..<end
    if content.contains(where: {
      raw[$0] == UInt8(ascii: ":") && ($0 + 1 == end || raw[$0 + 1] == 0x20)
    }) {
      throw .unsupported("a ': ' inside the value of '\(key)'")
    }
    let word = text(raw, content)
    if ["~", "null", "Null", "NULL"].contains(word) { return nil }
    if key == "password", resolvesToNonString(word) {
      throw .ambiguousPassword
    }
    return content
  }

  /// For a double-quoted value holding escapes, the content range to decode.
  private static func escapedRange(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>)
    -> Range<Int>?
  {
    guard let open = range.first(where: { raw[$0] != 0x20 && raw[$0] != 0x09 }),
      raw[open] == UInt8(ascii: "\"")
    else { return nil }
    var index = open + 1
    var hasEscape = false
    while index < range.upperBound, raw[index] != UInt8(ascii: "\"") {
      if raw[index] == UInt8(ascii: "\\") {
        hasEscape = true
        index += 1
      }
      index += 1
    }
    return hasEscape ? (open + 1)..<index : nil
  }

  private static func unescapeDoubleQuoted(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>)
    -> SecureBytes
  {
    // Every escape here is \" or \\ (checked by `scalar`): two bytes that stand for one.
    var count = 0
    var index = range.lowerBound
    while index < range.upperBound {
      index += raw[index] == UInt8(ascii: "\\") ? 2 : 1
      count += 1
    }
    return SecureBytes(count: count) { out in
      var cursor = SecureByteCursor(out)
      var index = range.lowerBound
      while index < range.upperBound {
        if raw[index] == UInt8(ascii: "\\") { index += 1 }
        cursor.append(raw[index])
        index += 1
      }
    }
  }

  /// Whether YAML would resolve the plain scalar to a boolean, a number or null — YAML 1.1's
  /// wider sets included (sexagesimal, `0777`, `1_000`, `yes`/`no`) — which antd might then not
  /// accept as the password string.
  public static func resolvesToNonString(_ word: String) -> Bool {
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
    ]
    return patterns.contains { pattern in
      (try? Regex(pattern).wholeMatch(in: word)) != nil
    }
  }

  private static func text(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: raw[range]), as: UTF8.self)
  }
}

/// Why an antd `config.yaml` could not be read or edited. Never quotes a password.
public enum AntdConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is larger than 1 MiB.
  case tooLarge
  /// A key this tool reads appears twice (serde_yaml refuses that too).
  case duplicateKey(String)
  /// The value has a YAML shape this tool does not read; the reason names it.
  case unsupported(String)
  /// The plain `password:` value could be read by YAML as a number, boolean or null.
  case ambiguousPassword
  /// An empty password cannot be written.
  case emptyPassword
  /// The password holds a control character (a line break, a tab, NUL …).
  case controlCharacterInPassword
  /// The password is not valid UTF-8, which a YAML file must be.
  case passwordNotUTF8

  public var description: String {
    switch self {
    case .tooLarge: "config.yaml is larger than 1 MiB"
    case .duplicateKey(let key):
      "config.yaml has '\(key):' twice, which antd refuses; keep one"
    case .unsupported(let shape):
      "config.yaml holds \(shape); write the value on its own line as `key: value`"
    case .ambiguousPassword:
      "config.yaml's password could be read by YAML as a number, boolean or null; put it in "
        + "double quotes"
    case .emptyPassword: "the password is empty"
    case .controlCharacterInPassword:
      "the password holds a control character (line break, tab …), which config.yaml cannot hold"
    case .passwordNotUTF8: "the password is not valid UTF-8 text"
    }
  }
}

import CryptoPrimitives
import VaultKeys

/// Reads a `config.yaml` as a YAML block mapping, as far as antd's identity needs: the
/// top-level keys (each one checked for a duplicate, as serde_yaml and PyYAML with a
/// duplicate-refusing loader refuse them) and the values of `password`, `password-file` and
/// `data-dir`, with their byte positions so an edit can keep every other byte.
///
/// What it reads is a subset of YAML chosen so that every file it accepts means the same to
/// serde_yaml and PyYAML: a UTF-8 BOM, LF or CRLF line breaks, comments, a mapping indented
/// as a whole, spaces around the colon, quoted keys, single-line plain, single-quoted and
/// double-quoted scalars (YAML's escapes) for the three keys, and for every other key any
/// value that ends where its indentation does. Everything else — tabs outside quotes, a lone
/// CR or another YAML line break (NEL, U+2028/U+2029), control characters, directives and
/// document markers other than a leading `---`, flow collections spanning lines, multi-line
/// quoted scalars, block scalars, anchors, tags, aliases, merge keys, complex keys, keys that
/// YAML reads as numbers or booleans — is refused with the line it is on.
struct AntdConfigScanner {
  /// How a scalar value is written.
  enum Style: Sendable { case plain, singleQuoted, doubleQuoted }

  /// Where the `password` value is, for the edit.
  enum PasswordSlot: Sendable {
    /// No `password` key.
    case absent
    /// `password:` with no value (null): the value goes right after the colon at `offset`.
    case empty(offset: Int)
    /// A scalar (`~`/`null` included) whose bytes, quotes included, are `range`.
    case scalar(range: Range<Int>, style: Style)
  }

  struct Result {
    var password: SecureBytes?
    var passwordFile: String?
    var dataDir: String?
    var passwordSlot = PasswordSlot.absent
    /// The mapping's indentation (spaces), for an appended line.
    var indentation = 0
    /// Whether the last byte is a line break (else one is added before an appended line).
    var endsWithLineBreak = true
    /// Whether the last top-level value is a block scalar, whose content an appended line
    /// would change when the file does not end with a line break.
    var endsInBlockScalar = false
  }

  static let keys = ["password", "password-file", "data-dir"]

  let raw: UnsafeRawBufferPointer
  /// Offset of each line's first byte and of its end (before CR LF or LF).
  private var lines: [(start: Int, end: Int)] = []

  init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

  private static func byte(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
  private static let space: UInt8 = 0x20
  private static let tab: UInt8 = 0x09

  // MARK: - The whole file

  mutating func scan() throws(AntdConfigError) -> Result {
    var result = Result()
    try splitLines(&result)
    var mapping: Int?  // the indentation of the top-level keys, once the first is seen
    var seen: [String: Int] = [:]
    var sawDocumentStart = false
    // The previous top-level key: one of ours (its name) or another; and whether its value
    // may continue on more indented lines (an empty value, a plain scalar, a block scalar).
    var previous: (key: String, ours: Bool, open: Bool, empty: Bool)?
    // The indentation of the first line of the previous key's nested block or block scalar:
    // a later line of it indented less (yet more than the keys) is not YAML.
    var nestedIndent: Int?
    for (index, line) in lines.enumerated() {
      let number = index + 1
      var first = line.start
      while first < line.end, raw[first] == Self.space { first += 1 }
      if first < line.end, raw[first] == Self.tab {
        throw .unsupported("a tab in the indentation", line: number)
      }
      guard first < line.end, raw[first] != Self.byte("#") else { continue }
      let indent = first - line.start
      if indent == 0, let marker = documentMarker(line) {
        guard marker == "---", mapping == nil, !sawDocumentStart,
          restIsBlankOrComment(line.start + 3, line.end)
        else {
          throw .unsupported(
            marker == "%" ? "a YAML directive" : "a document marker ('\(marker)')", line: number)
        }
        sawDocumentStart = true
        continue
      }
      guard let column = mapping else {
        mapping = indent
        result.indentation = indent
        previous = try keyLine(first, line.end, number, &seen, &result)
        continue
      }
      if indent > column
        || (indent == column && isSequenceEntry(first, line.end) && previous?.empty == true)
      {
        // The previous key's value goes on (a nested block, a sequence, a block scalar, a
        // folded plain scalar): antd's keys hold single-line scalars only.
        guard let previous, previous.open else {
          throw .unsupported("an indented line that continues no value", line: number)
        }
        if previous.ours {
          throw .unsupported(
            "the value of '\(previous.key)' continuing on the next line", line: number)
        }
        try requireNoTab(first, line.end, number)
        if previous.empty || result.endsInBlockScalar {
          if let nestedIndent, indent < nestedIndent {
            throw .unsupported("a line indented less than the lines before it", line: number)
          }
          nestedIndent = nestedIndent ?? indent
        }
        continue
      }
      guard indent == column else {
        throw .unsupported("a line indented less than the mapping's keys", line: number)
      }
      result.endsInBlockScalar = false
      nestedIndent = nil
      previous = try keyLine(first, line.end, number, &seen, &result)
    }
    return result
  }

  /// Splits the file into lines, refusing bytes YAML would read differently from a plain
  /// LF-or-CRLF text: another line break, control characters, a BOM after the start.
  private mutating func splitLines(_ result: inout Result) throws(AntdConfigError) {
    guard AntdConfig.isValidUTF8(raw) else { throw .notUTF8 }
    var start = raw.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var index = start
    var number = 1
    while index < raw.count {
      let byte = raw[index]
      switch byte {
      case 0x0A:
        let end = index > start && raw[index - 1] == 0x0D ? index - 1 : index
        lines.append((start, end))
        start = index + 1
        number += 1
      case 0x0D:
        guard index + 1 < raw.count, raw[index + 1] == 0x0A else {
          throw .unsupported("a carriage return that is not part of a CR LF", line: number)
        }
      case 0x09: break
      case 0x00..<0x20, 0x7F:
        throw .unsupported("a control character", line: number)
      case 0xC2 where index + 1 < raw.count && (0x80...0x9F).contains(raw[index + 1]):
        throw .unsupported("a control character or a NEL line break", line: number)
      case 0xE2
      where index + 2 < raw.count && raw[index + 1] == 0x80
        && (raw[index + 2] == 0xA8 || raw[index + 2] == 0xA9):
        throw .unsupported("a Unicode line or paragraph separator", line: number)
      case 0xEF where index + 2 < raw.count && raw[index + 1] == 0xBB && raw[index + 2] == 0xBF:
        throw .unsupported("a byte-order mark after the start of the file", line: number)
      case 0xEF where index + 2 < raw.count && raw[index + 1] == 0xBF && raw[index + 2] >= 0xBE:
        throw .unsupported("a noncharacter (U+FFFE or U+FFFF)", line: number)
      default: break
      }
      index += 1
    }
    if start < raw.count { lines.append((start, raw.count)) }
    result.endsWithLineBreak = start == raw.count
  }

  /// `---`, `...` or `%` when the line starts with one (a document marker needs a space or
  /// the line's end after it).
  private func documentMarker(_ line: (start: Int, end: Int)) -> String? {
    if raw[line.start] == Self.byte("%") { return "%" }
    for marker in ["---", "..."] where line.end - line.start >= 3 {
      let bytes = Array(marker.utf8)
      guard (0..<3).allSatisfy({ raw[line.start + $0] == bytes[$0] }) else { continue }
      if line.start + 3 == line.end || raw[line.start + 3] == Self.space
        || raw[line.start + 3] == Self.tab
      {
        return marker
      }
    }
    return nil
  }

  private func isSequenceEntry(_ first: Int, _ end: Int) -> Bool {
    raw[first] == Self.byte("-") && (first + 1 == end || raw[first + 1] == Self.space)
  }

  private func restIsBlankOrComment(_ start: Int, _ end: Int) -> Bool {
    var index = start
    while index < end, raw[index] == Self.space { index += 1 }
    return index == end || raw[index] == Self.byte("#")
  }

  private func requireNoTab(_ start: Int, _ end: Int, _ number: Int) throws(AntdConfigError) {
    // PyYAML refuses a tab outside quotes and comments; quotes in nested values are not
    // tracked here, so any tab on such a line is refused.
    if (start..<end).contains(where: { raw[$0] == Self.tab }) {
      throw .unsupported("a tab", line: number)
    }
  }

  // MARK: - One `key: value` line

  private func keyLine(
    _ first: Int, _ end: Int, _ number: Int, _ seen: inout [String: Int], _ result: inout Result
  ) throws(AntdConfigError) -> (key: String, ours: Bool, open: Bool, empty: Bool) {
    let (key, colon) = try self.key(first, end, number)
    if seen[key] != nil { throw .duplicateKey(JSONText.printable(key), line: number) }
    seen[key] = number
    var start = colon + 1
    while start < end, raw[start] == Self.space { start += 1 }
    if start < end, raw[start] == Self.tab { throw .unsupported("a tab", line: number) }
    let ours = Self.keys.contains(key)
    guard start < end, raw[start] != Self.byte("#") else {
      // An empty value: null, unless more indented lines follow (checked by the caller).
      if key == "password" { result.passwordSlot = .empty(offset: colon + 1) }
      return (key, ours, true, true)
    }
    guard ours else { return (key, false, try otherValue(start, end, number, &result), false) }
    let value = try scalar(start, end, key: key, number)
    switch key {
    case "password":
      result.passwordSlot = .scalar(range: value.range, style: value.style)
      guard !value.isNull else { break }
      let password = decoded(value)
      guard password.count > 0 else { throw .emptyPasswordInFile(line: number) }
      result.password = password
    case "password-file":
      result.passwordFile = value.isNull ? nil : text(decoded(value))
    default:
      result.dataDir = value.isNull ? nil : text(decoded(value))
    }
    return (key, true, value.style == .plain && !value.isNull, false)
  }

  /// The key at `first` (decoded) and the offset of its `:`.
  private func key(_ first: Int, _ end: Int, _ number: Int) throws(AntdConfigError)
    -> (String, Int)
  {
    let opener = raw[first]
    if opener == Self.byte("\"") || opener == Self.byte("'") {
      let close = try quotedEnd(first, end, number, what: "key")
      var colon = close
      while colon < end, raw[colon] == Self.space { colon += 1 }
      guard colon < end, raw[colon] == Self.byte(":"), isBlankOrEnd(colon + 1, end) else {
        throw .unsupported("a quoted key without ': ' after it", line: number)
      }
      let style: Style = opener == Self.byte("'") ? .singleQuoted : .doubleQuoted
      let bytes = try decode(first..<close, style: style, number)
      return (String(decoding: bytes, as: UTF8.self), colon)
    }
    try requirePlainStart(first, end, number, what: " where a key should be")
    var index = first
    while index < end {
      let byte = raw[index]
      if byte == Self.byte(":"), isBlankOrEnd(index + 1, end) { break }
      if byte == Self.byte("#"), raw[index - 1] == Self.space { index = end }
      if byte == Self.tab { throw .unsupported("a tab", line: number) }
      if index < end { index += 1 }
    }
    guard index < end else { throw .unsupported("a line that is not 'key: value'", line: number) }
    var keyEnd = index
    while keyEnd > first, raw[keyEnd - 1] == Self.space { keyEnd -= 1 }
    guard index - first <= 1024 else { throw .unsupported("a key longer than 1024", line: number) }
    let key = String(decoding: UnsafeRawBufferPointer(rebasing: raw[first..<keyEnd]), as: UTF8.self)
    if key == "<<" || key == "=" || AntdConfig.resolvesToNonString(key) {
      throw .unsupported("a key that YAML reads as something other than text", line: number)
    }
    return (key, index)
  }

  private func isBlankOrEnd(_ index: Int, _ end: Int) -> Bool {
    index == end || raw[index] == Self.space || raw[index] == Self.tab
  }

  /// A name for a byte that cannot start a plain scalar.
  private static func indicatorName(_ byte: UInt8) -> String? {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["): "a flow collection ({ … } or [ … ])"
    case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","): "a stray flow indicator"
    case UInt8(ascii: "&"): "an anchor (&)"
    case UInt8(ascii: "*"): "an alias (*)"
    case UInt8(ascii: "!"): "a tag (!)"
    case UInt8(ascii: "|"), UInt8(ascii: ">"): "a block scalar (| or >)"
    case UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"): "a reserved indicator"
    default: nil
    }
  }

  // MARK: - Values

  /// Checks another key's value on its line; returns whether more indented lines may
  /// continue it.
  private func otherValue(_ start: Int, _ end: Int, _ number: Int, _ result: inout Result)
    throws(AntdConfigError) -> Bool
  {
    let opener = raw[start]
    switch opener {
    case Self.byte("\""), Self.byte("'"):
      let close = try quotedEnd(start, end, number, what: "value")
      try requireBlankOrComment(close, end, number)
      _ = try decode(
        start..<close, style: opener == Self.byte("'") ? .singleQuoted : .doubleQuoted, number)
      return false
    case Self.byte("{"), Self.byte("["):
      try flowEnd(start, end, number)
      return false
    case Self.byte("|"), Self.byte(">"):
      try requireNoTab(start, end, number)
      result.endsInBlockScalar = true
      return true
    case Self.byte("&"), Self.byte("!"):
      // An anchor or a tag before the value: the rest of the line, or a nested block, is it;
      // a block scalar may follow, so an appended line is refused after it without a break.
      try requireNoTab(start, end, number)
      result.endsInBlockScalar = true
      return true
    case Self.byte("*"):
      try requireNoTab(start, end, number)
      return false
    default:
      try requirePlainStart(start, end, number, what: "")
      _ = try plainEnd(start, end, number)
      return true
    }
  }

  private struct Scalar {
    var range: Range<Int>
    var style: Style
    var isNull: Bool
  }

  /// The single-line scalar value of one of antd's keys.
  private func scalar(_ start: Int, _ end: Int, key: String, _ number: Int)
    throws(AntdConfigError) -> Scalar
  {
    let opener = raw[start]
    if opener == Self.byte("\"") || opener == Self.byte("'") {
      let close = try quotedEnd(start, end, number, what: "value of '\(key)'")
      try requireBlankOrComment(close, end, number)
      let style: Style = opener == Self.byte("'") ? .singleQuoted : .doubleQuoted
      _ = try decode(start..<close, style: style, number)  // validates the escapes
      return Scalar(range: start..<close, style: style, isNull: false)
    }
    try requirePlainStart(start, end, number, what: " as the value of '\(key)'")
    let valueEnd = try plainEnd(start, end, number)
    let word = String(
      decoding: UnsafeRawBufferPointer(rebasing: raw[start..<valueEnd]), as: UTF8.self)
    if ["~", "null", "Null", "NULL"].contains(word) {
      return Scalar(range: start..<valueEnd, style: .plain, isNull: true)
    }
    if word == "<<" || word == "=" || AntdConfig.resolvesToNonString(word) {
      throw key == "password"
        ? .ambiguousPassword(line: number) : .ambiguousValue(key: key, line: number)
    }
    return Scalar(range: start..<valueEnd, style: .plain, isNull: false)
  }

  /// Refuses a value that starts with an indicator rather than a plain scalar's first byte
  /// (`-`, `?` and `:` start one when a non-blank follows).
  private func requirePlainStart(_ start: Int, _ end: Int, _ number: Int, what: String)
    throws(AntdConfigError)
  {
    let opener = raw[start]
    if [Self.byte("-"), Self.byte("?"), Self.byte(":")].contains(opener) {
      guard isBlankOrEnd(start + 1, end) else { return }
      throw .unsupported(
        (opener == Self.byte("-") ? "a sequence entry" : "a '?' or ':' indicator") + what,
        line: number)
    }
    if let name = Self.indicatorName(opener) { throw .unsupported(name + what, line: number) }
  }

  /// The end of a plain scalar starting at `start` (trailing spaces and a comment excluded).
  private func plainEnd(_ start: Int, _ end: Int, _ number: Int) throws(AntdConfigError) -> Int {
    var index = start
    var contentEnd = start
    while index < end {
      let byte = raw[index]
      if byte == Self.tab { throw .unsupported("a tab", line: number) }
      if byte == Self.byte("#"), index > start, raw[index - 1] == Self.space { break }
      if byte == Self.byte(":"), isBlankOrEnd(index + 1, end) {
        throw .unsupported("a ': ' inside a plain value", line: number)
      }
      index += 1
      if byte != Self.space { contentEnd = index }
    }
    return contentEnd
  }

  /// The offset just after the closing quote of the scalar opened at `start`, on this line.
  private func quotedEnd(_ start: Int, _ end: Int, _ number: Int, what: String)
    throws(AntdConfigError) -> Int
  {
    let quote = raw[start]
    var index = start + 1
    while index < end {
      let byte = raw[index]
      if quote == Self.byte("\""), byte == Self.byte("\\") {
        index += 2
        continue
      }
      if byte == quote {
        if quote == Self.byte("'"), index + 1 < end, raw[index + 1] == quote {
          index += 2
          continue
        }
        return index + 1
      }
      index += 1
    }
    throw .unsupported("a quoted \(what) that does not end on its line", line: number)
  }

  /// Checks that a flow collection opened at `start` closes on this line.
  private func flowEnd(_ start: Int, _ end: Int, _ number: Int) throws(AntdConfigError) {
    var depth = 0
    var index = start
    while index < end {
      let byte = raw[index]
      switch byte {
      case Self.byte("\""), Self.byte("'"):
        index = try quotedEnd(index, end, number, what: "string in a flow collection")
        continue
      case Self.byte("["), Self.byte("{"): depth += 1
      case Self.byte("]"), Self.byte("}"):
        depth -= 1
        if depth == 0 {
          try requireBlankOrComment(index + 1, end, number)
          return
        }
      case Self.tab: throw .unsupported("a tab", line: number)
      case Self.byte("#") where raw[index - 1] == Self.space: index = end
      default: break
      }
      index += 1
    }
    throw .unsupported("a flow collection that does not end on its line", line: number)
  }

  private func requireBlankOrComment(_ start: Int, _ end: Int, _ number: Int)
    throws(AntdConfigError)
  {
    guard start == end || raw[start] == Self.space, restIsBlankOrComment(start, end) else {
      throw .unsupported("text after a quoted value", line: number)
    }
  }

  // MARK: - Decoding

  /// The content of a quoted scalar (`range` includes the quotes), decoded; validated
  /// only when `emit` is nil.
  private func decode(
    _ range: Range<Int>, style: Style, _ number: Int, emit: ((UInt8) -> Void)? = nil
  ) throws(AntdConfigError) -> [UInt8] {
    var out: [UInt8] = []
    func put(_ byte: UInt8) {
      if let emit { emit(byte) } else { out.append(byte) }
    }
    var index = range.lowerBound + 1
    let end = range.upperBound - 1
    guard style != .plain else {
      for k in range { put(raw[k]) }
      return out
    }
    while index < end {
      let byte = raw[index]
      if style == .singleQuoted {
        put(byte)
        index += byte == Self.byte("'") ? 2 : 1
        continue
      }
      guard byte == Self.byte("\\") else {
        put(byte)
        index += 1
        continue
      }
      let escape = raw[index + 1]
      index += 2
      let simple: [UInt8: UInt32] = [
        Self.byte("0"): 0, Self.byte("a"): 7, Self.byte("b"): 8, Self.byte("t"): 9, Self.tab: 9,
        Self.byte("n"): 10, Self.byte("v"): 11, Self.byte("f"): 12, Self.byte("r"): 13,
        Self.byte("e"): 0x1B, Self.space: 0x20, Self.byte("\""): 0x22, Self.byte("/"): 0x2F,
        Self.byte("\\"): 0x5C, Self.byte("N"): 0x85, Self.byte("_"): 0xA0,
        Self.byte("L"): 0x2028, Self.byte("P"): 0x2029,
      ]
      var scalar: UInt32
      if let value = simple[escape] {
        scalar = value
      } else {
        let digits: Int
        switch escape {
        case Self.byte("x"): digits = 2
        case Self.byte("u"): digits = 4
        case Self.byte("U"): digits = 8
        default: throw .unsupported("an unknown escape in a double-quoted scalar", line: number)
        }
        guard index + digits <= end else {
          throw .unsupported("a short escape in a double-quoted scalar", line: number)
        }
        scalar = 0
        for k in index..<index + digits {
          guard let digit = JSONText.hexValue(raw[k]) else {
            throw .unsupported("a short escape in a double-quoted scalar", line: number)
          }
          scalar = scalar << 4 | UInt32(digit)
        }
        index += digits
      }
      guard scalar < 0xD800 || (0xE000...0x10FFFF).contains(scalar) else {
        throw .unsupported("an escape that is no Unicode character", line: number)
      }
      JSONText.encodeUTF8(scalar, emit: put)
    }
    return out
  }

  /// A checked scalar's content in a zeroizing buffer (it may be the password).
  private func decoded(_ value: Scalar) -> SecureBytes {
    var count = 0
    _ = try? decode(value.range, style: value.style, 0) { _ in count += 1 }
    return SecureBytes(count: count) { out in
      var cursor = SecureByteCursor(out)
      _ = try? decode(value.range, style: value.style, 0) { cursor.append($0) }
    }
  }

  private func text(_ bytes: SecureBytes) -> String {
    bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}

import CryptoPrimitives

/// The package's one JSON reader: strict RFC 8259 on UTF-8 text, keeping the byte position of
/// every value (`JSONNode.range`) so edits can keep every other byte.
///
/// Refused, each with one line naming the problem: a byte-order mark, UTF-16 or UTF-32 text,
/// invalid UTF-8, a lone surrogate escape, a trailing comma, a comment, a member name that
/// appears twice in one object (readers disagree on which one wins), nesting deeper than
/// `maximumDepth` and documents larger than `maximumByteCount`.
package enum JSONText {
  /// Nesting deeper than this is refused rather than risking the stack; real key and config
  /// files nest a handful of levels.
  package static let maximumDepth = 128
  /// The largest document read: the CLI reads no node file larger than this either.
  package static let maximumByteCount = 4 * 1024 * 1024

  /// What the reader does with a member name that appears twice in one object.
  package enum DuplicateMembers: Sendable {
    /// Refused (the default: readers disagree on which one wins).
    case refused
    /// Kept, every one in order, for a reader that must agree with JavaScript's `JSON.parse`,
    /// where the last one wins (`JSONNode.lastMember(named:)`).
    case kept
  }

  /// Parses one JSON value surrounded by optional whitespace.
  package static func parse(
    _ bytes: UnsafeRawBufferPointer, duplicates: DuplicateMembers = .refused
  ) throws(JSONSyntaxError) -> JSONNode {
    guard bytes.count <= maximumByteCount else {
      throw JSONSyntaxError(
        offset: maximumByteCount, problem: "the text is larger than \(maximumByteCount >> 20) MiB")
    }
    if let problem = encodingProblem(bytes) { throw JSONSyntaxError(offset: 0, problem: problem) }
    var parser = Parser(bytes: bytes, duplicates: duplicates)
    parser.skipWhitespace()
    let root = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.atEnd else { throw parser.error("unexpected data after the value") }
    return root
  }

  /// Why the text is not UTF-8 JSON from its first bytes (a BOM, or the NUL bytes of UTF-16
  /// and UTF-32: JSON text starts with two ASCII characters or is a single one).
  private static func encodingProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
    let head = Array(bytes.prefix(4))
    if head.starts(with: [0xEF, 0xBB, 0xBF]) {
      return "the text starts with a byte-order mark (U+FEFF); save it as UTF-8 without one"
    }
    if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
      return "the text is UTF-32; save it as UTF-8"
    }
    if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
      return "the text is UTF-16; save it as UTF-8"
    }
    if head.count >= 2, head.prefix(4).contains(0) {
      let nuls = head.prefix(4).filter { $0 == 0 }.count
      return nuls >= 3 && head.count == 4
        ? "the text is UTF-32; save it as UTF-8" : "the text is UTF-16; save it as UTF-8"
    }
    return nil
  }

  /// The decoded bytes of the string `node` (escapes resolved), passed one at a time to `emit`,
  /// so a secret can be decoded straight into a `SecureBytes` buffer without temporaries.
  package static func decodeString(
    _ node: JSONNode, in bytes: UnsafeRawBufferPointer, emit: (UInt8) -> Void
  ) {
    precondition(node.isString, "decodeString needs a string node")
    var i = node.range.lowerBound + 1
    let end = node.range.upperBound - 1
    func hex4(_ at: Int) -> UInt32 {
      var value: UInt32 = 0
      for k in at..<at + 4 { value = value << 4 | UInt32(hexValue(bytes[k])!) }
      return value
    }
    while i < end {
      let byte = bytes[i]
      guard byte == UInt8(ascii: "\\") else {
        emit(byte)
        i += 1
        continue
      }
      let escape = bytes[i + 1]
      i += 2
      switch escape {
      case UInt8(ascii: "b"): emit(0x08)
      case UInt8(ascii: "f"): emit(0x0C)
      case UInt8(ascii: "n"): emit(0x0A)
      case UInt8(ascii: "r"): emit(0x0D)
      case UInt8(ascii: "t"): emit(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex4(i)
        i += 4
        // The parser accepted only paired surrogates.
        if (0xD800..<0xDC00).contains(scalar) {
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(i + 2) - 0xDC00)
          i += 6
        }
        encodeUTF8(scalar, emit: emit)
      default: emit(escape)  // \" \\ \/
      }
    }
  }

  /// The UTF-8 bytes of the Unicode scalar value `scalar` (below 0x110000, no surrogate),
  /// passed one at a time to `emit`. By hand: Unicode.Scalar's encoders would copy a secret
  /// through temporaries.
  package static func encodeUTF8(_ scalar: UInt32, emit: (UInt8) -> Void) {
    switch scalar {
    case 0..<0x80:
      emit(UInt8(scalar))
    case 0x80..<0x800:
      emit(UInt8(0xC0 | scalar >> 6))
      emit(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      emit(UInt8(0xE0 | scalar >> 12))
      emit(UInt8(0x80 | scalar >> 6 & 0x3F))
      emit(UInt8(0x80 | scalar & 0x3F))
    default:
      emit(UInt8(0xF0 | scalar >> 18))
      emit(UInt8(0x80 | scalar >> 12 & 0x3F))
      emit(UInt8(0x80 | scalar >> 6 & 0x3F))
      emit(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// The decoded text of the string `node`, for values that are not secret.
  package static func string(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) -> String {
    var out = [UInt8]()
    decodeString(node, in: bytes) { out.append($0) }
    return String(decoding: out, as: UTF8.self)
  }

  /// The decoded bytes of the string `node` in a zeroizing buffer, for secrets.
  package static func secureString(_ node: JSONNode, in bytes: UnsafeRawBufferPointer)
    -> SecureBytes
  {
    var count = 0
    decodeString(node, in: bytes) { _ in count += 1 }
    return SecureBytes(count: count) { out in
      var cursor = SecureByteCursor(out)
      decodeString(node, in: bytes) { cursor.append($0) }
    }
  }

  package static func isString(_ node: JSONNode) -> Bool { node.isString }

  /// The value of the number `node` if it is written as a non-negative integer without fraction
  /// or exponent that fits in 64 bits.
  package static func unsignedInteger(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) -> UInt64?
  {
    guard case .number = node.kind else { return nil }
    var value: UInt64 = 0
    for k in node.range {
      let byte = bytes[k]
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      let (times, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      guard !o1, !o2 else { return nil }
      value = sum
    }
    return value
  }

  /// The source text of `node` (numbers, for messages).
  package static func text(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[node.range]), as: UTF8.self)
  }

  package static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The line break and leading blanks before `offset` when it starts a line (a pretty-printed
  /// member), else a single space: what an inserted member is preceded by.
  package static func indentation(before offset: Int, in bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var start = offset
    while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
    guard start > 0, bytes[start - 1] == 0x0A else { return [0x20] }
    return [0x0A] + Array(bytes[start..<offset])
  }

  /// A file-supplied name made safe for a one-line message: printable ASCII, at most 40.
  package static func printable(_ name: String) -> String {
    let scalars = name.unicodeScalars
    let safe = scalars.prefix(40).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }
    return String(safe) + (scalars.count > 40 ? "…" : "")
  }

  private struct Parser {
    let bytes: UnsafeRawBufferPointer
    let duplicates: DuplicateMembers
    var index = 0

    func error(_ problem: String) -> JSONSyntaxError {
      JSONSyntaxError(offset: index, problem: problem)
    }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8 { bytes[index] }

    mutating func skipWhitespace() {
      while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(current) { index += 1 }
    }

    /// The refusal for a byte where a value was expected, naming the common non-JSON habits.
    func unexpected(_ expected: String) -> JSONSyntaxError {
      guard !atEnd else { return error("unexpected end, \(expected)") }
      switch current {
      case UInt8(ascii: "/"), UInt8(ascii: "#"): return error("comments are not allowed in JSON")
      case UInt8(ascii: "'"): return error("strings must use double quotes")
      case 0x80...: return error("non-ASCII byte outside a string; is the file UTF-8 JSON?")
      default: return error(expected)
      }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
      guard depth <= JSONText.maximumDepth else {
        throw error("nesting deeper than \(JSONText.maximumDepth)")
      }
      guard !atEnd else { throw error("unexpected end, expected a value") }
      switch current {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return try string()
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw unexpected("expected a value")
      }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode {
      let start = index
      index += 1
      var members: [JSONMember] = []
      var names = Set<String>()
      skipWhitespace()
      if !atEnd, current == UInt8(ascii: "}") {
        index += 1
        return JSONNode(kind: .object(members), range: start..<index)
      }
      while true {
        skipWhitespace()
        guard !atEnd, current == UInt8(ascii: "\"") else {
          if !atEnd, current == UInt8(ascii: "}"), !members.isEmpty {
            throw error("trailing comma before '}'")
          }
          throw unexpected("expected a member name")
        }
        let nameStart = index
        let nameNode = try string()
        let name = JSONText.string(nameNode, in: bytes)
        guard names.insert(name).inserted || duplicates == .kept else {
          throw JSONSyntaxError(
            offset: nameStart,
            problem: "the member \"\(JSONText.printable(name))\" appears twice in one object")
        }
        skipWhitespace()
        guard !atEnd, current == UInt8(ascii: ":") else { throw unexpected("expected ':'") }
        index += 1
        skipWhitespace()
        let member = try value(depth: depth + 1)
        members.append(JSONMember(name: name, nameRange: nameNode.range, value: member))
        skipWhitespace()
        guard !atEnd else { throw error("unexpected end, expected ',' or '}'") }
        if current == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard current == UInt8(ascii: "}") else { throw unexpected("expected ',' or '}'") }
        index += 1
        return JSONNode(kind: .object(members), range: start..<index)
      }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONNode {
      let start = index
      index += 1
      var elements: [JSONNode] = []
      skipWhitespace()
      if !atEnd, current == UInt8(ascii: "]") {
        index += 1
        return JSONNode(kind: .array(elements), range: start..<index)
      }
      while true {
        skipWhitespace()
        if !atEnd, current == UInt8(ascii: "]"), !elements.isEmpty {
          throw error("trailing comma before ']'")
        }
        elements.append(try value(depth: depth + 1))
        skipWhitespace()
        guard !atEnd else { throw error("unexpected end, expected ',' or ']'") }
        if current == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard current == UInt8(ascii: "]") else { throw unexpected("expected ',' or ']'") }
        index += 1
        return JSONNode(kind: .array(elements), range: start..<index)
      }
    }

    mutating func string() throws(JSONSyntaxError) -> JSONNode {
      let start = index
      index += 1
      while true {
        guard !atEnd else { throw error("unterminated string") }
        let byte = current
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          return JSONNode(kind: .string, range: start..<index)
        case 0..<0x20:
          throw error("control character in a string; escape it")
        case UInt8(ascii: "\\"):
          try escape()
        case 0x80...:
          try utf8Sequence()
        default:
          index += 1
        }
      }
    }

    /// One escape sequence at `index` (the backslash); surrogates must come in pairs.
    mutating func escape() throws(JSONSyntaxError) {
      index += 1
      guard !atEnd else { throw error("unterminated string") }
      switch current {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
        index += 1
      case UInt8(ascii: "u"):
        let escapeStart = index - 1
        guard let unit = hex4(at: index + 1) else {
          throw error("invalid \\u escape: it needs four hex digits")
        }
        index += 5
        if (0xDC00..<0xE000).contains(unit) {
          throw JSONSyntaxError(offset: escapeStart, problem: "lone low surrogate escape")
        }
        if (0xD800..<0xDC00).contains(unit) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u"), let low = hex4(at: index + 2),
            (0xDC00..<0xE000).contains(low)
          else {
            throw JSONSyntaxError(
              offset: escapeStart, problem: "lone high surrogate escape (no low surrogate after it)"
            )
          }
          index += 6
        }
      default: throw error("invalid escape")
      }
    }

    func hex4(at offset: Int) -> UInt32? {
      guard offset + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for k in offset..<offset + 4 {
        guard let digit = JSONText.hexValue(bytes[k]) else { return nil }
        value = value << 4 | UInt32(digit)
      }
      return value
    }

    /// One well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, at most
    /// U+10FFFF) starting at `index`.
    mutating func utf8Sequence() throws(JSONSyntaxError) {
      let lead = current
      let count: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: count = 2
      case 0xE0:
        count = 3
        lower = 0xA0
      case 0xED:
        count = 3
        upper = 0x9F
      case 0xE1...0xEF: count = 3
      case 0xF0:
        count = 4
        lower = 0x90
      case 0xF4:
        count = 4
        upper = 0x8F
      case 0xF1...0xF3: count = 4
      default: throw error("invalid UTF-8; the file must be UTF-8 text")
      }
      guard index + count <= bytes.count else { throw error("invalid UTF-8 at the end") }
      guard (lower...upper).contains(bytes[index + 1]),
        (1..<count).dropFirst().allSatisfy({ (0x80...0xBF).contains(bytes[index + $0]) })
      else { throw error("invalid UTF-8; the file must be UTF-8 text") }
      index += count
    }

    mutating func literal(_ word: StaticString, _ kind: JSONNode.Kind) throws(JSONSyntaxError)
      -> JSONNode
    {
      let start = index
      let text = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
      guard index + text.count <= bytes.count,
        bytes[index..<index + text.count].elementsEqual(text)
      else { throw error("expected a value") }
      index += text.count
      return JSONNode(kind: kind, range: start..<index)
    }

    mutating func number() throws(JSONSyntaxError) -> JSONNode {
      let start = index
      func isDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
      if current == UInt8(ascii: "-") { index += 1 }
      guard !atEnd, isDigit(current) else { throw error("expected a digit") }
      if current == UInt8(ascii: "0") {
        index += 1
      } else {
        while !atEnd, isDigit(current) { index += 1 }
      }
      if !atEnd, current == UInt8(ascii: ".") {
        index += 1
        guard !atEnd, isDigit(current) else { throw error("expected a digit after '.'") }
        while !atEnd, isDigit(current) { index += 1 }
      }
      if !atEnd, current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        index += 1
        if !atEnd, current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
        guard !atEnd, isDigit(current) else { throw error("expected a digit in the exponent") }
        while !atEnd, isDigit(current) { index += 1 }
      }
      return JSONNode(kind: .number, range: start..<index)
    }
  }
}

/// A minimal RFC 8259 JSON reader that keeps the byte position of every value, so a key file can
/// be read without copying its secrets into Swift strings, and a config file can be edited by
/// replacing exactly the bytes of two values while every other byte stays as the user had it.
struct JSONNode: Sendable {
  enum Kind: Sendable {
    case object([JSONMember])
    case array([JSONNode])
    /// The content is decoded only on request (`JSONText.string(_:in:)`), never eagerly.
    case string
    case number
    case bool(Bool)
    case null
  }

  let kind: Kind
  /// The value's bytes in the document; for a string, including its quotes.
  let range: Range<Int>

  /// The members whose name equals `name` ignoring ASCII case, as Go's encoding/json matches
  /// struct fields (bee reads `Crypto` as well as `crypto`). Empty unless this is an object.
  func members(named name: String) -> [JSONMember] {
    guard case .object(let members) = kind else { return [] }
    let wanted = name.lowercased()
    return members.filter { $0.name.lowercased() == wanted }
  }

  /// A short name of the value's JSON type, for error messages.
  var typeName: String {
    switch kind {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

/// One `"name": value` pair of an object.
struct JSONMember: Sendable {
  /// The decoded member name.
  let name: String
  /// The name's bytes, including its quotes.
  let nameRange: Range<Int>
  let value: JSONNode
}

/// Where and why a document is not JSON. Never quotes the document, which may hold a secret.
struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
  let offset: Int
  let problem: String

  var description: String { "invalid JSON at byte \(offset): \(problem)" }
}

enum JSONText {
  /// Nesting deeper than this is refused rather than risking the stack; real key and config
  /// files nest a handful of levels.
  static let maximumDepth = 128

  /// Parses one JSON value surrounded by optional whitespace.
  static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONNode {
    var parser = Parser(bytes: bytes)
    parser.skipWhitespace()
    let root = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("unexpected data after the value") }
    return root
  }

  /// The decoded bytes of the string `node` (escapes resolved), passed one at a time to `emit`,
  /// so a secret can be decoded straight into a `SecureBytes` buffer.
  static func decodeString(
    _ node: JSONNode, in bytes: UnsafeRawBufferPointer, emit: (UInt8) -> Void
  ) {
    precondition(isString(node), "decodeString needs a string node")
    var i = node.range.lowerBound + 1
    let end = node.range.upperBound - 1
    func hex4(_ at: Int) -> UInt32 {
      var value: UInt32 = 0
      for k in at..<at + 4 { value = value << 4 | UInt32(hexValue(bytes[k])!) }
      return value
    }
    func emitScalar(_ scalar: UInt32) {
      let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
      for unit in String(s).utf8 { emit(unit) }
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
        var unit = hex4(i)
        i += 4
        if (0xD800..<0xDC00).contains(unit), i + 6 <= end, bytes[i] == UInt8(ascii: "\\"),
          bytes[i + 1] == UInt8(ascii: "u")
        {
          let low = hex4(i + 2)
          if (0xDC00..<0xE000).contains(low) {
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            i += 6
          }
        }
        // A lone surrogate becomes U+FFFD, as Go's decoder does.
        emitScalar(unit)
      default: emit(escape)  // \" \\ \/
      }
    }
  }

  /// The decoded text of the string `node`, for values that are not secret.
  static func string(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) -> String {
    var out = [UInt8]()
    decodeString(node, in: bytes) { out.append($0) }
    return String(decoding: out, as: UTF8.self)
  }

  static func isString(_ node: JSONNode) -> Bool {
    if case .string = node.kind { return true }
    return false
  }

  /// The value of the number `node` if it is written as a non-negative integer without fraction
  /// or exponent that fits in 64 bits.
  static func unsignedInteger(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) -> UInt64? {
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
  static func text(_ node: JSONNode, in bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[node.range]), as: UTF8.self)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// `text` as a JSON string literal with quotes, escaping what RFC 8259 requires plus
  /// `<`, `>`, `&` as Go's encoder does.
  static func quoted(_ text: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    let digits = Array("0123456789abcdef".utf8)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
        out += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }

  private struct Parser {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    func error(_ problem: String) -> JSONSyntaxError {
      JSONSyntaxError(offset: index, problem: problem)
    }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8 { bytes[index] }

    mutating func skipWhitespace() {
      while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(current) { index += 1 }
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
      default: throw error("expected a value")
      }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode {
      let start = index
      index += 1
      var members: [JSONMember] = []
      skipWhitespace()
      if !atEnd, current == UInt8(ascii: "}") {
        index += 1
        return JSONNode(kind: .object(members), range: start..<index)
      }
      while true {
        skipWhitespace()
        guard !atEnd, current == UInt8(ascii: "\"") else { throw error("expected a member name") }
        let name = try string()
        skipWhitespace()
        guard !atEnd, current == UInt8(ascii: ":") else { throw error("expected ':'") }
        index += 1
        skipWhitespace()
        let member = try value(depth: depth + 1)
        members.append(
          JSONMember(name: JSONText.string(name, in: bytes), nameRange: name.range, value: member))
        skipWhitespace()
        guard !atEnd else { throw error("unexpected end, expected ',' or '}'") }
        if current == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard current == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
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
        elements.append(try value(depth: depth + 1))
        skipWhitespace()
        guard !atEnd else { throw error("unexpected end, expected ',' or ']'") }
        if current == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard current == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
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
        if byte == UInt8(ascii: "\"") {
          index += 1
          return JSONNode(kind: .string, range: start..<index)
        }
        guard byte >= 0x20 else { throw error("control character in a string") }
        if byte == UInt8(ascii: "\\") {
          index += 1
          guard !atEnd else { throw error("unterminated string") }
          switch current {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 1
          case UInt8(ascii: "u"):
            guard index + 4 < bytes.count,
              (index + 1...index + 4).allSatisfy({ JSONText.hexValue(bytes[$0]) != nil })
            else { throw error("invalid \\u escape") }
            index += 5
          default: throw error("invalid escape")
          }
        } else {
          index += 1
        }
      }
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

/// The package's one JSON writer: a value whose objects keep the order their members were
/// added in, rendered as RFC 8259 text (UTF-8, no byte-order mark), so key files have the
/// field order their node expects and `--json` output reads the same every time.
///
/// Not for secrets: the text is a `String`. Key files that hold a secret in the clear are
/// assembled into `SecureBytes` around `quoted` names (see `AntIdentity.json`).
public indirect enum JSONValue: Sendable, Equatable {
  case string(String)
  case number(UInt64)
  /// A non-negative number written with one decimal (seconds).
  case tenths(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object(JSONObject)

  /// The value as JSON text, indented by two spaces per level, ending without a newline.
  public func rendered(indent: String = "") -> String {
    switch self {
    case .string(let text): return JSONValue.quoted(text)
    case .number(let number): return String(number)
    case .tenths(let value):
      let tenths = UInt64(max(0, value) * 10 + 0.5)
      return "\(tenths / 10).\(tenths % 10)"
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array(let elements):
      guard !elements.isEmpty else { return "[]" }
      let inner = indent + "  "
      let lines = elements.map { inner + $0.rendered(indent: inner) }
      return "[\n" + lines.joined(separator: ",\n") + "\n" + indent + "]"
    case .object(let object):
      guard !object.members.isEmpty else { return "{}" }
      let inner = indent + "  "
      let lines = object.members.map { key, value in
        inner + JSONValue.quoted(key) + ": " + value.rendered(indent: inner)
      }
      return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
    }
  }

  /// The value as JSON text without any whitespace, as Go's `json.Marshal` writes it.
  public var compact: String {
    switch self {
    case .string, .number, .tenths, .bool, .null: return rendered()
    case .array(let elements): return "[" + elements.map(\.compact).joined(separator: ",") + "]"
    case .object(let object):
      let members = object.members.map { JSONValue.quoted($0.key) + ":" + $0.value.compact }
      return "{" + members.joined(separator: ",") + "}"
    }
  }

  /// `text` as a JSON string literal (RFC 8259 §7): `"` and `\` escaped, control characters as
  /// their short escape or `\u00XX`, everything else (valid Unicode) as UTF-8.
  public static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// A JSON object's members in order; written as a dictionary literal.
public struct JSONObject: ExpressibleByDictionaryLiteral, Sendable, Equatable {
  public private(set) var members: [(key: String, value: JSONValue)]

  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    members = elements.map { (key: $0.0, value: $0.1) }
  }

  /// Adds `key` at the end; the writer never repeats a key, so this does not look for one.
  public mutating func append(_ key: String, _ value: JSONValue) {
    members.append((key: key, value: value))
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.members.count == rhs.members.count
      && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }
}

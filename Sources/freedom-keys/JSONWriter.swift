/// A JSON value whose objects keep the order their keys were written in (JSONSerialization
/// does not), so `--json` output reads the same every time.
indirect enum JSONValue {
  case string(String)
  case number(UInt64)
  /// A non-negative number written with one decimal (seconds).
  case tenths(Double)
  case bool(Bool)
  case array([JSONValue])
  case object(JSONObject)

  /// The value as JSON text, indented by two spaces per level, ending without a newline.
  func rendered(indent: String = "") -> String {
    switch self {
    case .string(let text): return JSONValue.quoted(text)
    case .number(let number): return String(number)
    case .tenths(let value):
      let tenths = UInt64(max(0, value) * 10 + 0.5)
      return "\(tenths / 10).\(tenths % 10)"
    case .bool(let flag): return flag ? "true" : "false"
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

  /// `text` as a JSON string literal (RFC 8259 §7).
  static func quoted(_ text: String) -> String {
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
struct JSONObject: ExpressibleByDictionaryLiteral {
  private(set) var members: [(key: String, value: JSONValue)]

  init(dictionaryLiteral elements: (String, JSONValue)...) {
    members = elements.map { (key: $0.0, value: $0.1) }
  }

  /// Adds `key` at the end; the writer never repeats a key, so this does not look for one.
  mutating func append(_ key: String, _ value: JSONValue) {
    members.append((key: key, value: value))
  }
}

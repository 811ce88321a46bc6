import Foundation

/// Radicle's `config.json`, edited only at `node.alias`: every other byte (field order,
/// indentation, fields this tool does not know) stays as the user had it.
struct ExportRadicleConfig {
  /// The largest alias Radicle accepts, in UTF-8 bytes.
  static let maximumAliasByteCount = 32

  /// Why an alias is not one Radicle accepts; nil if it is.
  static func aliasProblem(_ alias: String) -> String? {
    if alias.isEmpty { return "the alias cannot be empty" }
    if alias.utf8.count > maximumAliasByteCount {
      return "the alias cannot be longer than \(maximumAliasByteCount) bytes"
    }
    let invalid = alias.unicodeScalars.contains {
      $0.properties.isWhitespace || $0.properties.generalCategory == .control
    }
    return invalid ? "the alias cannot contain whitespace or control characters" : nil
  }

  /// The config a fresh Radicle home gets: only the alias; Radicle fills in the defaults.
  static func new(alias: String) -> [UInt8] {
    Array("{\n  \"node\": {\n    \"alias\": \(JSONValue.quoted(alias))\n  }\n}\n".utf8)
  }

  let bytes: [UInt8]
  /// `node.alias`, if set.
  let alias: String?
  private let root: Node
  private let node: Member?
  private let aliasMember: Member?

  /// Parses `bytes`, which must be a JSON object whose `node`, if present, is an object.
  init(json bytes: [UInt8]) throws(ExportRadicleConfigError) {
    // Foundation checks the syntax; the scanner below then only has to find positions.
    guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else {
      throw .notAJSONObject
    }
    var scanner = Scanner(bytes: bytes)
    root = scanner.value()
    self.bytes = bytes
    let nodes = root.members.filter { $0.name == "node" }
    guard nodes.count <= 1 else { throw .duplicate("node") }
    node = nodes.first
    guard let node else {
      alias = nil
      aliasMember = nil
      return
    }
    guard node.value.isObject else { throw .nodeNotAnObject }
    let aliases = node.value.members.filter { $0.name == "alias" }
    guard aliases.count <= 1 else { throw .duplicate("node.alias") }
    aliasMember = aliases.first
    if let member = aliasMember {
      guard member.value.isString,
        let text = try? JSONDecoder().decode(
          String.self, from: Data(bytes[member.value.range]))
      else { throw .aliasNotAString }
      alias = text
    } else {
      alias = nil
    }
  }

  /// The file with `node.alias` set to `alias`.
  func settingAlias(_ alias: String) -> [UInt8] {
    let literal = JSONValue.quoted(alias)
    if let aliasMember {
      return replacing(aliasMember.value.range, with: literal)
    }
    if let node {
      return inserting("\"alias\": \(literal)", into: node.value, indentOf: node)
    }
    return inserting("\"node\": {\"alias\": \(literal)}", into: root, indentOf: nil)
  }

  /// Adds `member` as the first member of `object`, on its own line with the indentation of
  /// the object's members (or one level below `owner` for an empty object).
  private func inserting(_ member: String, into object: Node, indentOf owner: Member?) -> [UInt8] {
    if let first = object.members.first {
      let indent = indentation(before: first.nameStart)
      return replacing(first.nameStart..<first.nameStart, with: member + "," + indent)
    }
    // An empty object is written out one level deeper than its owner's line.
    let outer =
      owner.map { indentation(before: $0.nameStart) } ?? (bytes.contains(0x0A) ? "\n" : " ")
    let multiLine = outer.hasPrefix("\n")
    let inner = multiLine ? outer + "  " : " "
    return replacing(object.range, with: "{" + inner + member + (multiLine ? outer : " ") + "}")
  }

  /// The line break and leading blanks before `offset` if it starts a line, else one space.
  private func indentation(before offset: Int) -> String {
    var start = offset
    while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
    guard start > 0, bytes[start - 1] == 0x0A else { return " " }
    return "\n" + String(decoding: bytes[start..<offset], as: UTF8.self)
  }

  private func replacing(_ range: Range<Int>, with text: String) -> [UInt8] {
    Array(bytes[..<range.lowerBound]) + Array(text.utf8) + Array(bytes[range.upperBound...])
  }

  // MARK: - Positions

  /// A value and where it is; objects keep their members in order.
  fileprivate struct Node {
    let range: Range<Int>
    let isObject: Bool
    let isString: Bool
    let members: [Member]
  }

  fileprivate struct Member {
    let name: String
    let nameStart: Int
    let value: Node
  }

  /// Finds value positions in a document Foundation already accepted as valid JSON.
  fileprivate struct Scanner {
    let bytes: [UInt8]
    var index = 0

    mutating func value() -> Node {
      skipWhitespace()
      let start = index
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        var members: [Member] = []
        skipWhitespace()
        while bytes[index] != UInt8(ascii: "}") {
          let nameStart = index
          let nameRange = stringRange()
          let name =
            (try? JSONDecoder().decode(String.self, from: Data(bytes[nameRange]))) ?? ""
          skipWhitespace()
          index += 1  // ':'
          members.append(Member(name: name, nameStart: nameStart, value: value()))
          skipWhitespace()
          if bytes[index] == UInt8(ascii: ",") { index += 1 }
          skipWhitespace()
        }
        index += 1
        return Node(range: start..<index, isObject: true, isString: false, members: members)
      case UInt8(ascii: "["):
        index += 1
        skipWhitespace()
        while bytes[index] != UInt8(ascii: "]") {
          _ = value()
          skipWhitespace()
          if bytes[index] == UInt8(ascii: ",") { index += 1 }
          skipWhitespace()
        }
        index += 1
        return Node(range: start..<index, isObject: false, isString: false, members: [])
      case UInt8(ascii: "\""):
        let range = stringRange()
        return Node(range: range, isObject: false, isString: true, members: [])
      default:
        // A number or literal runs to the next delimiter.
        while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
        return Node(range: start..<index, isObject: false, isString: false, members: [])
      }
    }

    /// The string starting at `index`, quotes included.
    private mutating func stringRange() -> Range<Int> {
      let start = index
      index += 1
      while bytes[index] != UInt8(ascii: "\"") {
        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
      }
      index += 1
      return start..<index
    }

    private mutating func skipWhitespace() {
      while index < bytes.count, " \t\r\n".utf8.contains(bytes[index]) { index += 1 }
    }
  }
}

/// Why Radicle's `config.json` cannot be given an alias.
enum ExportRadicleConfigError: Error, CustomStringConvertible {
  /// The file is not a JSON object.
  case notAJSONObject
  /// `node` is not an object.
  case nodeNotAnObject
  /// `node.alias` is not a string.
  case aliasNotAString
  /// A member appears twice, which Radicle refuses.
  case duplicate(String)

  var description: String {
    switch self {
    case .notAJSONObject: "it is not a JSON object; fix it or move it away first"
    case .nodeNotAnObject: "its 'node' field is not an object; fix it by hand first"
    case .aliasNotAString: "its 'node.alias' is not a string; fix it by hand first"
    case .duplicate(let name): "it has '\(name)' twice; fix it by hand first"
    }
  }
}

import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Radicle's `config.json` in the Radicle home, read and edited only at `node.alias`: every
/// other byte (field order, indentation, number spelling, fields this tool does not know) stays
/// as the user had it. Bytes in, bytes out: nothing here touches the disk.
package struct RadicleConfig: Sendable {
  /// The largest alias Radicle accepts, in UTF-8 bytes.
  package static let maximumAliasByteCount = 32

  /// Why `alias` is not one Radicle accepts (1 to 32 bytes, no whitespace or control
  /// characters); nil if it is.
  package static func aliasProblem(_ alias: String) -> String? {
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
  package static func new(alias: String) throws(RadicleConfigError) -> [UInt8] {
    if let problem = aliasProblem(alias) { throw .invalidAlias(problem) }
    let object: JSONValue = .object(["node": .object(["alias": .string(alias)])])
    return Array((object.rendered() + "\n").utf8)
  }

  /// The file's bytes as read.
  package let bytes: [UInt8]
  /// `node.alias`, if set.
  package let alias: String?
  private let root: JSONNode
  private let node: JSONMember?
  private let aliasMember: JSONMember?

  /// Parses `bytes`, which must be strict UTF-8 JSON: an object whose `node`, if present, is an
  /// object whose `alias`, if present, is a string.
  package init(json: some ContiguousBytes) throws(RadicleConfigError) {
    let bytes = json.withUnsafeBytes { [UInt8]($0) }
    let parsed: Result<(JSONNode, String?), RadicleConfigError> = bytes.withUnsafeBytes { raw in
      do throws(RadicleConfigError) {
        return .success(try Self.read(raw))
      } catch {
        return .failure(error)
      }
    }
    (root, alias) = try parsed.get()
    self.bytes = bytes
    node = root.member(exactly: "node")
    aliasMember = node?.value.member(exactly: "alias")
  }

  private static func read(_ raw: UnsafeRawBufferPointer) throws(RadicleConfigError) -> (
    JSONNode, String?
  ) {
    let root: JSONNode
    do {
      root = try JSONText.parse(raw)
    } catch {
      throw .invalidJSON(error.description)
    }
    guard root.isObject else { throw .notAnObject }
    guard let node = root.member(exactly: "node") else { return (root, nil) }
    guard node.value.isObject else { throw .nodeNotAnObject }
    guard let alias = node.value.member(exactly: "alias") else { return (root, nil) }
    guard alias.value.isString else { throw .aliasNotAString }
    return (root, JSONText.string(alias.value, in: raw))
  }

  /// The file with `node.alias` set to `alias`; every byte outside that value is kept (a
  /// missing `node` or `alias` member is inserted with its neighbours' indentation).
  package func settingAlias(_ alias: String) throws(RadicleConfigError) -> [UInt8] {
    if let problem = Self.aliasProblem(alias) { throw .invalidAlias(problem) }
    let literal = JSONValue.quoted(alias)
    if let aliasMember {
      return replacing(aliasMember.value.range, with: Array(literal.utf8))
    }
    if let node {
      return inserting("\"alias\": \(literal)", into: node.value, owner: node)
    }
    return inserting("\"node\": {\"alias\": \(literal)}", into: root, owner: nil)
  }

  /// Adds `member` as the first member of `object`, on its own line with the indentation of
  /// the object's members (or one level below `owner` for an empty object).
  private func inserting(_ member: String, into object: JSONNode, owner: JSONMember?) -> [UInt8] {
    bytes.withUnsafeBytes { raw in
      let text = Array(member.utf8)
      if case .object(let members) = object.kind, let first = members.first {
        let start = first.nameRange.lowerBound
        let indent = JSONText.indentation(before: start, in: raw)
        return replacing(start..<start, with: text + Array(",".utf8) + indent)
      }
      // An empty object is written out one level deeper than its owner's line.
      let outer =
        owner.map { JSONText.indentation(before: $0.nameRange.lowerBound, in: raw) }
        ?? (bytes.contains(0x0A) ? [0x0A] : [0x20])
      let multiLine = outer.first == 0x0A
      let inner = multiLine ? outer + [0x20, 0x20] : [0x20]
      let close = multiLine ? outer : [0x20]
      return replacing(object.range, with: [UInt8(ascii: "{")] + inner + text + close + [0x7D])
    }
  }

  private func replacing(_ range: Range<Int>, with replacement: [UInt8]) -> [UInt8] {
    Array(bytes[..<range.lowerBound]) + replacement + Array(bytes[range.upperBound...])
  }
}

/// Why Radicle's `config.json` cannot be given an alias.
package enum RadicleConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not strict UTF-8 JSON; the reason says where and why.
  case invalidJSON(String)
  /// The top level is not an object.
  case notAnObject
  /// `node` is not an object.
  case nodeNotAnObject
  /// `node.alias` is not a string.
  case aliasNotAString
  /// The alias to write is one Radicle refuses.
  case invalidAlias(String)

  package var description: String {
    switch self {
    case .invalidJSON(let detail): "it is not valid JSON (\(detail)); fix it or move it away first"
    case .notAnObject: "it is not a JSON object; fix it or move it away first"
    case .nodeNotAnObject: "its 'node' field is not an object; fix it by hand first"
    case .aliasNotAString: "its 'node.alias' is not a string; fix it by hand first"
    case .invalidAlias(let problem): "invalid alias: \(problem)"
    }
  }
}

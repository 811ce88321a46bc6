/// One value of a document read by `JSONText.parse`, with the byte range it occupies, so a key
/// file can be read without copying its secrets into Swift strings, and a config file can be
/// edited by replacing exactly the bytes of a value while every other byte stays as it was.
package struct JSONNode: Sendable {
  package enum Kind: Sendable {
    case object([JSONMember])
    case array([JSONNode])
    /// The content is decoded only on request (`JSONText.string(_:in:)`), never eagerly.
    case string
    case number
    case bool(Bool)
    case null
  }

  package let kind: Kind
  /// The value's bytes in the document; for a string, including its quotes.
  package let range: Range<Int>

  /// The members whose name equals `name` ignoring ASCII case, as Go's encoding/json matches
  /// struct fields (bee reads `Crypto` as well as `crypto`). Empty unless this is an object.
  /// The reader refuses exact duplicates; callers that match ignoring case check the count.
  package func members(named name: String) -> [JSONMember] {
    guard case .object(let members) = kind else { return [] }
    let wanted = name.lowercased()
    return members.filter { $0.name.lowercased() == wanted }
  }

  /// The member named exactly `name`, if any (the reader guarantees there is at most one).
  package func member(exactly name: String) -> JSONMember? {
    guard case .object(let members) = kind else { return nil }
    return members.first { $0.name == name }
  }

  /// The last member whose name is exactly `name` (compared as Unicode code points, as
  /// JavaScript compares property names), the one `JSON.parse` keeps when a name repeats.
  package func lastMember(named name: String) -> JSONMember? {
    guard case .object(let members) = kind else { return nil }
    return members.last { $0.name.unicodeScalars.elementsEqual(name.unicodeScalars) }
  }

  package var isObject: Bool {
    if case .object = kind { return true }
    return false
  }

  package var isString: Bool {
    if case .string = kind { return true }
    return false
  }

  /// A short name of the value's JSON type, for error messages.
  package var typeName: String {
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
package struct JSONMember: Sendable {
  /// The decoded member name.
  package let name: String
  /// The name's bytes, including its quotes.
  package let nameRange: Range<Int>
  package let value: JSONNode
}

/// Where and why a document is not strict RFC 8259 JSON in UTF-8. Never quotes the document,
/// which may hold a secret.
package struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The byte at which the text stops being JSON (its length: the text is cut short).
  package let offset: Int
  package let problem: String

  package var description: String { "invalid JSON at byte \(offset): \(problem)" }
}

@testable import VaultKeys

/// The JSON reader: never crashes; every range lies inside the input and nests properly; every
/// string decodes to valid UTF-8; and the document written back with the package's writer
/// (strings re-quoted by `JSONValue.quoted`, numbers as written) reads back to the same text.
func canonical(_ node: JSONNode, _ raw: UnsafeRawBufferPointer) -> String {
  require(node.range.lowerBound >= 0 && node.range.upperBound <= raw.count, "range outside input")
  switch node.kind {
  case .object(let members):
    return "{"
      + members.map { member in
        require(member.nameRange.upperBound <= member.value.range.lowerBound, "name after value")
        require(node.range.contains(member.value.range.lowerBound), "member outside object")
        return JSONValue.quoted(member.name) + ":" + canonical(member.value, raw)
      }.joined(separator: ",") + "}"
  case .array(let elements):
    return "[" + elements.map { canonical($0, raw) }.joined(separator: ",") + "]"
  case .string:
    var decoded = [UInt8]()
    JSONText.decodeString(node, in: raw) { decoded.append($0) }
    let text = String(validating: decoded, as: UTF8.self)
    require(text != nil, "a string decoded to invalid UTF-8")
    return JSONValue.quoted(text ?? "")
  case .number: return JSONText.text(node, in: raw)
  case .bool(let flag): return flag ? "true" : "false"
  case .null: return "null"
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = bytes(data, size)
  let first: String? = input.withUnsafeBytes { raw in
    guard let root = try? JSONText.parse(raw) else { return nil }
    return canonical(root, raw)
  }
  guard let first else { return 0 }
  let again: String? = Array(first.utf8).withUnsafeBytes { raw in
    guard let root = try? JSONText.parse(raw) else { return nil }
    return canonical(root, raw)
  }
  require(again == first, "the written document does not read back the same")
  return 0
}

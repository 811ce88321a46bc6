import VaultKeys

extension NodeFinding {
  /// The node's JSON object, as `verify --json` prints it.
  package var json: JSONObject {
    let finding = self
    var object: JSONObject = [
      "status": .string(finding.status.rawValue), "expected": .string(finding.expected ?? ""),
    ]
    if let found = finding.foundText { object.append("found", .string(found)) }
    object.append("path", .string(finding.path))
    if let authenticated = finding.authenticated {
      object.append("authenticated", .bool(authenticated))
    }
    if case .antIdentity(let nonce, let overlay, let readers)? = finding.reason {
      object.append("nonce", .string(Self.name(nonce)))
      object.append("overlay", .string(overlay))
      object.append("acceptedBy", .array(readers.map { .string($0.rawValue) }))
    }
    if !finding.problems.isEmpty {
      object.append("problems", .array(finding.problems.map { .string($0) }))
    }
    return object
  }

  /// The JSON name of an Ant identity's nonce.
  private static func name(_ nonce: AntIdentity.NonceOrigin) -> String {
    switch nonce {
    case .zero: "zero"
    case .derivedFromKey: "derivedFromKey"
    case .other: "other"
    }
  }
}

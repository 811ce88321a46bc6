import VaultKeys

/// A BIP-32 path with index ranges, as `--path` takes it: `m/44'/60'/0'/0/{0-19}` stands for
/// the 20 paths m/44'/60'/0'/0/0 … m/44'/60'/0'/0/19, `m/44'/60'/{0-4}'/0/0` for five accounts.
/// Each component is an index or a range `{a-b}`, either followed by `'` (or `h`) if hardened.
package struct DerivationPathTemplate: Sendable, Equatable {
  /// The paths, the last component fastest.
  package let paths: [DerivationPath]

  /// More paths than this are refused: each is one more key per candidate.
  package static let maximumPathCount = 1000

  package init(_ text: String) throws(RecoveryError) {
    guard text.hasPrefix("m/") || text == "m" else {
      throw .invalidPathTemplate("it must begin with m/, as in m/44'/60'/0'/0/{0-19}")
    }
    var expanded = ["m"]
    for component in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      var body = Substring(component)
      var mark = ""
      if let last = body.last, last == "'" || last == "h" || last == "H" {
        mark = "'"
        body = body.dropLast()
      }
      let indices: ClosedRange<UInt32>
      if body.hasPrefix("{"), body.hasSuffix("}") {
        let bounds = body.dropFirst().dropLast().split(
          separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let low = UInt32(bounds[0]), let high = UInt32(bounds[1]),
          low <= high
        else {
          throw .invalidPathTemplate(
            "a range is {A-B} with whole numbers A ≤ B, as in {0-19}")
        }
        indices = low...high
      } else if let index = UInt32(body) {
        indices = index...index
      } else {
        throw .invalidPathTemplate(
          "each component is an index or a range {A-B}, either with ' if hardened")
      }
      guard UInt64(expanded.count) * UInt64(indices.count) <= UInt64(Self.maximumPathCount) else {
        throw .invalidPathTemplate("it stands for more than \(Self.maximumPathCount) paths")
      }
      expanded = expanded.flatMap { prefix in indices.map { "\(prefix)/\($0)\(mark)" } }
    }
    var paths: [DerivationPath] = []
    for path in expanded {
      do {
        paths.append(try DerivationPath(path))
      } catch {
        throw .invalidPathTemplate(error.description)
      }
    }
    guard paths.allSatisfy({ !$0.components.isEmpty }) else {
      throw .invalidPathTemplate("it names the master key itself; give a path below m")
    }
    self.paths = paths
  }
}

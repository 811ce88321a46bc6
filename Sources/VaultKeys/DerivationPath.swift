/// A BIP-32 derivation path such as `m/44'/60'/0'/0/1`: the child indices from a master key.
public struct DerivationPath: Sendable, Hashable, CustomStringConvertible {
  /// One step of a path: an index below 2^31 and whether the child is hardened.
  public struct Component: Sendable, Hashable, CustomStringConvertible {
    /// The offset BIP-32 adds to the index of a hardened child.
    public static let hardenedOffset: UInt32 = 0x8000_0000

    /// The index without the hardened bit, in 0 ..< 2^31.
    public let index: UInt32
    /// Whether the child is hardened (derivable only from a private key).
    public let isHardened: Bool

    /// The 32-bit child number BIP-32 hashes: `index`, plus 2^31 when hardened.
    public var rawIndex: UInt32 { isHardened ? index | Self.hardenedOffset : index }

    /// A component from an index below 2^31.
    public init(index: UInt32, hardened: Bool) throws(DerivationPathError) {
      guard index < Self.hardenedOffset else { throw .indexOutOfRange(index) }
      self.index = index
      self.isHardened = hardened
    }

    /// The component whose BIP-32 child number is `rawIndex` (every 32-bit value is one).
    public init(rawIndex: UInt32) {
      index = rawIndex & ~Self.hardenedOffset
      isHardened = rawIndex >= Self.hardenedOffset
    }

    /// The index, followed by `'` when hardened.
    public var description: String { isHardened ? "\(index)'" : "\(index)" }
  }

  /// The most components a parsed path may have: an extended key records its depth in one byte.
  public static let maximumDepth = 255

  /// The steps from the master key, in order; empty for the master key itself.
  public let components: [Component]

  /// The path of `components`.
  public init(components: [Component]) {
    self.components = components
  }

  /// Parses `m` or `m/` followed by `/`-separated indices, each hardened by a trailing `'`, `h`
  /// or `H`, e.g. `m/44'/60'/0'/0/1`.
  public init(_ text: String) throws(DerivationPathError) {
    guard !text.isEmpty else { throw .empty }
    if let offset = text.unicodeScalars.firstIndex(where: \.properties.isWhitespace) {
      let position = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: offset)
      throw .whitespace(characterPosition: position + 1)
    }
    let segments = text.split(separator: "/", omittingEmptySubsequences: false)
    guard segments[0] == "m" else { throw .missingMaster(text) }
    // Refused here, not when deriving, so a caller can refuse it before reading any secret.
    guard segments.count - 1 <= Self.maximumDepth else { throw .tooDeep(segments.count - 1) }
    var components = [Component]()
    components.reserveCapacity(segments.count - 1)
    for (offset, segment) in segments.dropFirst().enumerated() {
      components.append(try Self.parseSegment(segment, position: offset + 1))
    }
    self.components = components
  }

  private static func parseSegment(
    _ segment: Substring, position: Int
  ) throws(DerivationPathError) -> Component {
    guard !segment.isEmpty else { throw .emptySegment(position: position) }
    var digits = segment.utf8[...]
    var hardened = false
    if let last = digits.last,
      last == UInt8(ascii: "'") || last == UInt8(ascii: "h")
        || last == UInt8(ascii: "H")
    {
      hardened = true
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { throw .invalidSegment(position: position, segment: String(segment)) }
    // Accumulate in 64 bits and stop at the first digit that passes 2^31 − 1, so any length is safe.
    var value: UInt64 = 0
    for digit in digits {
      value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
      guard value < UInt64(Component.hardenedOffset) else {
        throw .indexTooLarge(position: position, segment: String(segment))
      }
    }
    return try Component(index: UInt32(value), hardened: hardened)
  }

  /// The canonical text: `m`, then `/index` per component, with `'` for hardened ones.
  public var description: String {
    components.reduce(into: "m") { text, component in text += "/\(component)" }
  }

  /// Whether every component is hardened (true for `m`), as SLIP-0010 Ed25519 requires.
  public var isFullyHardened: Bool { components.allSatisfy(\.isHardened) }

  /// This path followed by `component`.
  public func appending(_ component: Component) -> DerivationPath {
    DerivationPath(components: components + [component])
  }
}

/// Why a derivation path was rejected.
public enum DerivationPathError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text was empty.
  case empty
  /// The text contained a space, tab or newline (at this 1-based character position).
  case whitespace(characterPosition: Int)
  /// The text did not start with `m` (the master key) followed by `/` or its end.
  case missingMaster(String)
  /// Two slashes in a row, or a trailing slash (1-based segment position after `m`).
  case emptySegment(position: Int)
  /// A segment was not a decimal index with an optional `'`, `h` or `H`.
  case invalidSegment(position: Int, segment: String)
  /// A segment's index was 2^31 or more.
  case indexTooLarge(position: Int, segment: String)
  /// A component was built from an index of 2^31 or more.
  case indexOutOfRange(UInt32)
  /// The path has more than 255 components, deeper than an extended key can record.
  case tooDeep(Int)

  public var description: String {
    switch self {
    case .empty:
      "the derivation path is empty: write m for the master key, or a path such as m/44'/60'/0'/0/0"
    case .whitespace(let position):
      "the derivation path contains whitespace at character \(position): write it without spaces, "
        + "such as m/44'/60'/0'/0/0"
    case .missingMaster(let text):
      "the derivation path \(text) does not start with m/: write it from the master key, "
        + "such as m/44'/60'/0'/0/0"
    case .emptySegment(let position):
      "segment \(position) of the derivation path is empty: remove the extra /"
    case .invalidSegment(let position, let segment):
      "segment \(position) ('\(segment)') of the derivation path is not an index: write a decimal "
        + "number, followed by ' (or h) when hardened, such as 44'"
    case .indexTooLarge(let position, let segment):
      "segment \(position) ('\(segment)') of the derivation path is too large: an index must be "
        + "at most 2147483647, and ' marks a hardened one"
    case .indexOutOfRange(let index):
      "index \(index) is too large: an index must be at most 2147483647, and hardened is a separate flag"
    case .tooDeep(let count):
      "the derivation path has \(count) levels: an extended key can be at most 255 levels deep"
    }
  }
}

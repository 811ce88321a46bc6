import CryptoPrimitives

/// The bytes of a hex literal written in a test; a malformed literal is a bug in the test.
func bytes(_ hex: String) -> [UInt8] {
  guard let decoded = Hex.decode(hex) else {
    preconditionFailure("bad hex literal in a test: \(hex)")
  }
  return decoded
}

/// `count` bytes 0, 1, 2, … wrapping at 256: a deterministic message of any length.
func counting(_ count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: $0) }
}

/// The ASCII/UTF-8 bytes of `string`.
func utf8(_ string: String) -> [UInt8] { Array(string.utf8) }

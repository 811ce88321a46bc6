import CryptoPrimitives
import Testing

/// Legacy Keccak-256 (Ethereum's padding) against published and pycryptodome answers.
@Suite struct KeccakVectorTests {
  struct Vector: Decodable, CustomTestStringConvertible, Sendable {
    let id: String
    let input: String?
    let inputHex: String?
    let `repeat`: String?
    let count: Int?
    let digest: String
    var testDescription: String { id }

    /// The message, from whichever single input form the vector uses.
    func message() throws -> [UInt8] {
      switch (input, inputHex, self.repeat, count) {
      case (let text?, nil, nil, nil): return Array(text.utf8)
      case (nil, let hex?, nil, nil): return [UInt8](hex: hex)
      case (nil, nil, let unit?, let count?):
        return Array(repeatElement(Array(unit.utf8), count: count).joined())
      default: throw VectorShapeError(id: id)
      }
    }
  }

  struct VectorShapeError: Error { let id: String }

  static let vectors = (try? VectorFile<Vector>.load("keccak256").vectors) ?? []

  @Test func fileHasElevenVectors() {
    #expect(Self.vectors.count == 11)
  }

  @Test(arguments: vectors)
  func digest(vector: Vector) throws {
    #expect(Hex.encode(Keccak256.hash(try vector.message())) == vector.digest)
  }

  /// Message i of `length` bytes is (7i + 3) mod 256: no run of equal bytes hides a misplaced one.
  static func pattern(_ length: Int) -> [UInt8] {
    (0..<length).map { UInt8(truncatingIfNeeded: 7 * $0 + 3) }
  }

  /// Lengths around the 136-byte rate, where padding either shares a block with the last
  /// message byte, fills a block exactly, or needs a block of its own; digests from
  /// pycryptodome's `keccak.new(digest_bits=256)`.
  @Test(arguments: [
    (0, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
    (1, "69c322e3248a5dfc29d73c5b0553b0185a35cd5bb6386747517ef7e53b15e287"),
    (31, "8522dc30be01c01348c0591309ac2948c9ae4ce02facbb745f85a5297286d3dd"),
    (32, "04d1b47ed3b04c5ff6a0280293cb2ab55bd297c9c2e0c3449831b419285d7df2"),
    (33, "6aa134a68136f6d487895406a25cc734a9b20cb805cd09b7c1dcb29bcd490fe6"),
    (64, "0251cf13aa5b18f1cbda7cddbe85f3dc536fc93df590c2d20ca9b28af1ed2c39"),
    (134, "0c00ddc2482876f8fa8cc91ed55deedf61049892967f383560faf8a5787f86c5"),
    (135, "00ef96af9cf4b24c7f269d922294444a197d0a33638c2e56634c57e892103a8f"),
    (136, "742061bcad767ed4c4f5883b1dcb1aad11afdcc140dc469d953759b127b9f9ed"),
    (137, "e3371f61e770abf254c34239c3b0099ad90594507415bc81dd0a10b9692bbf2a"),
    (200, "66d2cdf3ab4c5bd3c75add9b60b14ac5b7789534fa2da3f348853b847359a3a0"),
    (271, "4401c4afbe16ff911bdbf2d38e556e5b861f3fdf0f9d4306b1c46f6ae4f73584"),
    (272, "ac141fd7b0a0ffcd2e967254d508da3ec616596493c36fa304425647d90e6de5"),
    (273, "16192ea86793083e47731cb3c970600f04768414d92bc0540e54ce8607a0fce0"),
    (300, "fa75f2293be9f9a14dcdeeff53f7b91ff6a2b1331b13886e69077ab1cf8252a9"),
  ])
  func patternLength(length: Int, digest: String) {
    #expect(Hex.encode(Keccak256.hash(Self.pattern(length))) == digest)
    // A lazy sequence takes the same path as an array.
    let lazy = (0..<length).lazy.map { UInt8(truncatingIfNeeded: 7 * $0 + 3) }
    #expect(Hex.encode(Keccak256.hash(lazy)) == digest)
  }

  /// Every length 0…300 at once: Keccak-256 of the 301 digests concatenated, as pycryptodome
  /// computes it (`k(b"".join(k(pattern(n)) for n in range(301)))`).
  @Test func everyLengthUpTo300() {
    let digests = (0...300).flatMap { Keccak256.hash(Self.pattern($0)) }
    #expect(
      Hex.encode(Keccak256.hash(digests))
        == "2c42f3ea255cc9e489b3111815c1014717c9fe06d269a2b51cbc4d99c5390a8b")
  }
}

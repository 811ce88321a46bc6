import CryptoPrimitives
import Testing
import VaultKeys

/// EIP-55's own test cases: each address is its own checksummed form.
@Suite struct EIP55VectorTests {
  struct Vector: Decodable, CustomTestStringConvertible, Sendable {
    let id: String
    let category: String
    let address: String
    var testDescription: String { "\(id) \(address)" }
  }

  static let vectors = (try? VectorFile<Vector>.load("eip55").vectors) ?? []

  @Test func fileHasAllEightCases() {
    #expect(Self.vectors.count == 8)
  }

  @Test(arguments: vectors)
  func parsesAndPrintsTheSameAddress(vector: Vector) throws {
    let address = try EthereumAddress(vector.address)
    #expect(address.checksummed == vector.address)
    #expect(address.description == vector.address)
    #expect("0x" + address.lowercaseHex == vector.address.lowercased())
  }

  @Test(arguments: vectors)
  func checksumsLowercaseAndUppercaseText(vector: Vector) throws {
    let digits = vector.address.dropFirst(2)
    for text in ["0x" + digits.lowercased(), digits.lowercased(), "0x" + digits.uppercased()] {
      #expect(try EthereumAddress(text).checksummed == vector.address, "\(text)")
    }
  }

  /// Flipping the case of any one letter makes the text mixed-case but no longer EIP-55.
  @Test(arguments: vectors)
  func rejectsEveryOneLetterCaseFlip(vector: Vector) throws {
    var chars = Array(vector.address)
    let letters = chars.indices.dropFirst(2).filter { chars[$0].isLetter }
    try #require(!letters.isEmpty)
    for i in letters {
      let original = chars[i]
      chars[i] = Character(original.isUppercase ? original.lowercased() : original.uppercased())
      let flipped = String(chars)
      #expect(throws: AddressError.badChecksum(flipped), "\(flipped)") {
        try EthereumAddress(flipped)
      }
      chars[i] = original
    }
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

@Suite struct EthereumAddressTests {
  /// Private key 1: its public key is the generator G, whose address is widely published.
  @Test func addressOfPrivateKeyOne() throws {
    let one = SecureBytes([UInt8](repeating: 0, count: 31) + [1])
    let key = try Secp256k1.PrivateKey(rawRepresentation: one)
    let address = EthereumAddress(publicKey: key.publicKey)
    #expect(address.checksummed == "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf")
    #expect(address.lowercaseHex == "7e5f4552091a69125d5dfcb7b8c2659029395bdf")
    #expect(address.rawRepresentation == Hex.decode("7e5f4552091a69125d5dfcb7b8c2659029395bdf"))
    #expect("\(address)" == "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf")
  }

  /// The compressed and uncompressed encodings of one key give one address.
  @Test func addressDoesNotDependOnThePointEncoding() throws {
    let g = try #require(
      Hex.decode("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"))
    let key = try Secp256k1.PublicKey(sec1Representation: g)
    let uncompressed = try Secp256k1.PublicKey(sec1Representation: key.uncompressedRepresentation)
    #expect(EthereumAddress(publicKey: key) == EthereumAddress(publicKey: uncompressed))
    #expect(
      EthereumAddress(publicKey: key).lowercaseHex == "7e5f4552091a69125d5dfcb7b8c2659029395bdf")
  }

  @Test func rawRepresentationRoundTrips() throws {
    let bytes = [UInt8](repeating: 0xff, count: 20)
    let address = try EthereumAddress(rawRepresentation: bytes)
    #expect(address.rawRepresentation == bytes)
    #expect(address.checksummed == "0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF")
    #expect(
      try EthereumAddress(rawRepresentation: [UInt8](repeating: 0, count: 20)).checksummed
        == "0x0000000000000000000000000000000000000000")
  }

  @Test func rejectsRawBytesOfTheWrongLength() {
    #expect(throws: AddressError.wrongByteCount(19)) {
      try EthereumAddress(rawRepresentation: [UInt8](repeating: 1, count: 19))
    }
    #expect(throws: AddressError.wrongByteCount(32)) {
      try EthereumAddress(rawRepresentation: [UInt8](repeating: 1, count: 32))
    }
  }

  @Test func acceptsBothPrefixesAndNone() throws {
    let expected = "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf"
    for text in [
      "7e5f4552091a69125d5dfcb7b8c2659029395bdf", "0X7E5F4552091A69125D5DFCB7B8C2659029395BDF",
      "7E5F4552091A69125d5DfCb7b8C2659029395Bdf",
    ] {
      #expect(try EthereumAddress(text).checksummed == expected, "\(text)")
    }
  }

  @Test func rejectsMalformedText() {
    let cases: [(String, AddressError)] = [
      ("", .wrongDigitCount(0)),
      ("0x", .wrongDigitCount(0)),
      ("0x7e5f4552091a69125d5dfcb7b8c2659029395bd", .wrongDigitCount(39)),
      ("0x7e5f4552091a69125d5dfcb7b8c2659029395bdf0", .wrongDigitCount(41)),
      (" 0x7e5f4552091a69125d5dfcb7b8c2659029395bdf", .wrongDigitCount(43)),
      ("0x0x5f4552091a69125d5dfcb7b8c2659029395bdf", .notHex),
      ("0x7e5f4552091a69125d5dfcb7b8c2659029395bdg", .notHex),
      ("0x7e5f4552091a69125d5dfcb7b8c2659029395bé", .notHex),  // é is two UTF-8 bytes
      (
        "0x7E5F4552091A69125d5DfCb7b8C2659029395BdF",
        .badChecksum("0x7E5F4552091A69125d5DfCb7b8C2659029395BdF")
      ),
    ]
    for (text, error) in cases {
      #expect(throws: error, "\(text)") { try EthereumAddress(text) }
    }
  }

  @Test func errorMessages() {
    #expect(
      AddressError.badChecksum("0xABCd").description
        == "the EIP-55 checksum (letter case) of 0xABCd is wrong: the address was probably "
        + "mistyped; copy it again from its source")
    #expect(
      AddressError.wrongDigitCount(39).description
        == "an Ethereum address is 40 hex digits (optionally after 0x), got 39 characters")
  }

  @Test func equalAddressesHashAlike() throws {
    let set: Set = [
      try EthereumAddress("0x7e5f4552091a69125d5dfcb7b8c2659029395bdf"),
      try EthereumAddress("0x7E5F4552091A69125D5DFCB7B8C2659029395BDF"),
    ]
    #expect(set.count == 1)
  }
}

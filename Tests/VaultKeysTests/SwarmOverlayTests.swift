import CryptoPrimitives
import Testing
import VaultKeys

/// Overlays of desktop Freedom's swarm address, computed with pycryptodome as
/// keccak256(address ‖ struct.pack("<Q", network) ‖ nonce).
@Suite struct SwarmOverlayTests {
  static var address: EthereumAddress {
    get throws {
      try EthereumAddress(
        rawRepresentation: #require(Hex.decode("6fac4d18c912343bf86fa7049364dd4e424ab9c0")))
    }
  }

  @Test func mainnetWithZeroNonceIsTheDefault() throws {
    let overlay = try SwarmOverlay(address: Self.address)
    #expect(overlay.hex == "ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279")
    #expect(overlay.networkID == SwarmOverlay.mainnet)
    #expect(overlay.nonce == [UInt8](repeating: 0, count: 32))
    #expect(try overlay.address == Self.address)
    #expect(overlay.rawRepresentation == Hex.decode(overlay.hex))
    #expect(
      try overlay
        == SwarmOverlay(
          address: Self.address, networkID: 1, nonce: [UInt8](repeating: 0, count: 32)))
  }

  @Test func testnet() throws {
    let overlay = try SwarmOverlay(address: Self.address, networkID: SwarmOverlay.testnet)
    #expect(overlay.hex == "74256997df50fd70714b8eede092905999d6e61c1d91c86fa6cc230e55613754")
  }

  @Test func nonceIsHashedAsGiven() throws {
    let nonce = (1...32).map { UInt8($0) }
    let overlay = try SwarmOverlay(address: Self.address, networkID: 10, nonce: nonce)
    #expect(overlay.hex == "a1119e66048ac4fff6d1c00b8928ef5839500d3e8a5a7f34741374d089f6e26c")
    #expect(overlay.nonce == nonce)
  }

  /// A network ID with eight distinct bytes catches a big-endian encoding.
  @Test func networkIDIsLittleEndian() throws {
    let overlay = try SwarmOverlay(address: Self.address, networkID: 0x0102_0304_0506_0708)
    #expect(overlay.hex == "560a57273a590f844569f98d7ebaf3c8cfeb919488067067b024346c6ba61d41")
  }

  @Test func rejectsANonceThatIsNot32Bytes() {
    for count in [0, 31, 33] {
      #expect(throws: SwarmOverlayError.wrongNonceLength(count)) {
        try SwarmOverlay(address: Self.address, nonce: [UInt8](repeating: 0, count: count))
      }
    }
    #expect(
      SwarmOverlayError.wrongNonceLength(31).description
        == "a Swarm overlay nonce is 32 bytes (64 hex digits), got 31 bytes")
  }
}

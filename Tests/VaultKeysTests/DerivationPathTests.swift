import Testing
import VaultKeys

@Suite struct DerivationPathTests {
  private func component(_ index: UInt32, _ hardened: Bool) throws -> DerivationPath.Component {
    try DerivationPath.Component(index: index, hardened: hardened)
  }

  @Test func parsesEveryHardenedMarker() throws {
    let expected = [
      try component(44, true), try component(60, true), try component(0, true),
      try component(0, false),
      try component(1, false),
    ]
    for text in ["m/44'/60'/0'/0/1", "m/44h/60h/0h/0/1", "m/44H/60H/0H/0/1", "m/44'/60h/0H/0/1"] {
      let path = try DerivationPath(text)
      #expect(path.components == expected, "\(text)")
      #expect(path.description == "m/44'/60'/0'/0/1", "\(text)")
    }
  }

  @Test func masterIsTheEmptyPath() throws {
    let path = try DerivationPath("m")
    #expect(path.components.isEmpty)
    #expect(path.description == "m")
    #expect(path.isFullyHardened)
    #expect(path == DerivationPath(components: []))
  }

  @Test func indicesAtTheLimits() throws {
    let path = try DerivationPath("m/0/2147483647/0'/2147483647'")
    #expect(path.components.map(\.index) == [0, 2_147_483_647, 0, 2_147_483_647])
    #expect(path.components.map(\.isHardened) == [false, false, true, true])
    #expect(path.components.map(\.rawIndex) == [0, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff])
    // Leading zeros name the same index; the canonical form drops them.
    #expect(try DerivationPath("m/007'").description == "m/7'")
  }

  @Test(arguments: [
    "m", "m/0", "m/0'", "m/44'/60'/0'/0/1", "m/2147483647'/2147483647/1/2",
    "m/44'/73405'/0'/0'/0'",
  ])
  func descriptionRoundTrips(text: String) throws {
    let path = try DerivationPath(text)
    #expect(path.description == text)
    #expect(try DerivationPath(path.description) == path)
  }

  @Test func rejectsMalformedPaths() {
    let cases: [(String, DerivationPathError)] = [
      ("", .empty),
      ("44'/60'", .missingMaster("44'/60'")),
      ("/44'", .missingMaster("/44'")),
      ("M/44'", .missingMaster("M/44'")),
      ("m44'", .missingMaster("m44'")),
      ("m/", .emptySegment(position: 1)),
      ("m/44'//0", .emptySegment(position: 2)),
      ("m/44'/0/", .emptySegment(position: 3)),
      ("m/abc", .invalidSegment(position: 1, segment: "abc")),
      ("m/44'/6o'", .invalidSegment(position: 2, segment: "6o'")),
      ("m/'", .invalidSegment(position: 1, segment: "'")),
      ("m/44''", .invalidSegment(position: 1, segment: "44''")),
      ("m/44'h", .invalidSegment(position: 1, segment: "44'h")),
      ("m/-1", .invalidSegment(position: 1, segment: "-1")),
      ("m/+1", .invalidSegment(position: 1, segment: "+1")),
      ("m/0x10", .invalidSegment(position: 1, segment: "0x10")),
      ("m/44\u{2019}", .invalidSegment(position: 1, segment: "44\u{2019}")),
      ("m/١", .invalidSegment(position: 1, segment: "١")),
      ("m/2147483648", .indexTooLarge(position: 1, segment: "2147483648")),
      ("m/0/2147483648'", .indexTooLarge(position: 2, segment: "2147483648'")),
      ("m/4294967296", .indexTooLarge(position: 1, segment: "4294967296")),
      (
        "m/99999999999999999999999999",
        .indexTooLarge(position: 1, segment: "99999999999999999999999999")
      ),
      (" m/0", .whitespace(characterPosition: 1)),
      ("m/44'/ 0", .whitespace(characterPosition: 7)),
      ("m/0 ", .whitespace(characterPosition: 4)),
      ("m/0\t/1", .whitespace(characterPosition: 4)),
      ("m/0\n", .whitespace(characterPosition: 4)),
    ]
    for (text, error) in cases {
      #expect(throws: error, "\(text.debugDescription)") { try DerivationPath(text) }
    }
  }

  @Test func errorMessagesNameTheSegment() {
    #expect(
      DerivationPathError.invalidSegment(position: 2, segment: "6o'").description
        == "segment 2 ('6o'') of the derivation path is not an index: write a decimal number, "
        + "followed by ' (or h) when hardened, such as 44'")
    #expect(
      DerivationPathError.indexTooLarge(position: 1, segment: "2147483648").description
        == "segment 1 ('2147483648') of the derivation path is too large: an index must be at most "
        + "2147483647, and ' marks a hardened one")
    #expect(
      DerivationPathError.emptySegment(position: 3).description
        == "segment 3 of the derivation path is empty: remove the extra /")
  }

  @Test func componentRejectsIndicesWithTheHardenedBit() throws {
    #expect(throws: DerivationPathError.indexOutOfRange(0x8000_0000)) {
      try DerivationPath.Component(index: 0x8000_0000, hardened: false)
    }
    #expect(throws: DerivationPathError.indexOutOfRange(0xffff_ffff)) {
      try DerivationPath.Component(index: 0xffff_ffff, hardened: true)
    }
    let hardened = try component(0x7fff_ffff, true)
    #expect(hardened.rawIndex == 0xffff_ffff)
    #expect(hardened.description == "2147483647'")
    #expect(DerivationPath.Component(rawIndex: 0x8000_002c) == (try component(44, true)))
    #expect(DerivationPath.Component(rawIndex: 44) == (try component(44, false)))
  }

  @Test func appendingAndHardenedness() throws {
    let account = try DerivationPath("m/44'/73405'/0'")
    #expect(account.isFullyHardened)
    let hardenedChild = account.appending(try component(0, true))
    #expect(hardenedChild.description == "m/44'/73405'/0'/0'")
    #expect(hardenedChild.isFullyHardened)
    let normalChild = account.appending(try component(0, false))
    #expect(normalChild.description == "m/44'/73405'/0'/0")
    #expect(!normalChild.isFullyHardened)
    #expect(account.description == "m/44'/73405'/0'")
    #expect(try DerivationPath("m/0'/1'") != DerivationPath("m/0'/1"))
  }
}

@Suite struct DerivationPathDepthTests {
  @Test func atMost255Components() throws {
    let deep = "m" + String(repeating: "/1", count: 255)
    #expect(try DerivationPath(deep).components.count == 255)
    #expect(throws: DerivationPathError.tooDeep(256)) { try DerivationPath(deep + "/1") }
  }
}

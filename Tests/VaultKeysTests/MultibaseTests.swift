import CryptoPrimitives
import Testing
import VaultKeys

@Suite struct MultibaseTests {
  /// multiformats/multibase tests: "yes mani !" with 0, 1 and 2 leading zero bytes.
  @Test(arguments: [
    ("", "z", "k"),
    ("79657320 6d616e692021", "z7paNL19xttacUY", "k2lcpzo5yikidynfl"),
    ("00 79657320 6d616e692021", "z17paNL19xttacUY", "k02lcpzo5yikidynfl"),
    ("0000 79657320 6d616e692021", "z117paNL19xttacUY", "k002lcpzo5yikidynfl"),
  ])
  func specVectors(hex: String, base58btc: String, base36: String) throws {
    let bytes = try #require(Hex.decode(hex.filter { $0 != " " }))
    #expect(Multibase.encode(bytes, as: .base58btc) == base58btc)
    #expect(Multibase.encode(bytes, as: .base36) == base36)
    #expect(Multibase.encode(bytes, as: .base36Upper) == base36.uppercased())
    #expect(Multibase.decode(base58btc)?.encoding == .base58btc)
    #expect(Multibase.decode(base58btc)?.bytes == bytes)
    #expect(Multibase.decode(base36)?.encoding == .base36)
    #expect(Multibase.decode(base36)?.bytes == bytes)
    #expect(Multibase.decode(base36.uppercased())?.encoding == .base36Upper)
    #expect(Multibase.decode(base36.uppercased())?.bytes == bytes)
  }

  /// multiformats/multibase's case-insensitivity test: mixed case decodes to "hello world".
  @Test func base36IgnoresCase() {
    let helloWorld = Array("hello world".utf8)
    #expect(Multibase.decode("kfUvrsIvVnfRbjWaJo")?.bytes == helloWorld)
    #expect(Multibase.decode("KfUVrSIVVnFRbJWAJo")?.bytes == helloWorld)
    #expect(Base36.encode(helloWorld) == "fuvrsivvnfrbjwajo")
    #expect(Base36.decode("FUVRSIVVNFRBJWAJO") == helloWorld)
  }

  /// Leading zero bytes are digit zero ('0'), and the rest round-trips like base58.
  @Test(arguments: [
    ("", ""), ("0001", "01"), ("0000ff", "0073"), ("61", "2p"), ("626262", "3u736"),
    ("516b6fcd0f", "4gnba1hr"),
  ])
  func base36(hex: String, text: String) throws {
    let bytes = try #require(Hex.decode(hex))
    #expect(Base36.encode(bytes) == text)
    #expect(Base36.decode(text) == bytes)
  }

  @Test func rejectsUnknownPrefixesAndDigits() {
    for text in ["", "b", "bafz", "f00", "k-", "kz!", "z0", "zO", "zl", "k é"] {
      #expect(Multibase.decode(text) == nil, "\(text)")
    }
    #expect(Base36.decode("é") == nil)
    #expect(Base36.decode("_") == nil)
  }
}

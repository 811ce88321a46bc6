import CryptoPrimitives
import Foundation
import Testing

@Suite struct SecureBytesTests {
  @Test func initializers() {
    let filled = SecureBytes(count: 4) { buffer in
      for i in 0..<buffer.count { buffer[i] = UInt8(0xa0 + i) }
    }
    #expect(filled.count == 4)
    #expect(filled.revealHex() == "a0a1a2a3")
    #expect(SecureBytes(bytes("a0a1a2a3")) == filled)
    #expect(SecureBytes(utf8: "abc é").revealHex() == "61626320c3a9")
    #expect(SecureBytes(Data([1, 2, 3])).revealHex() == "010203")
  }

  @Test func equalityComparesLengthAndContent() {
    let a = SecureBytes(bytes("00112233"))
    #expect(a == SecureBytes(bytes("00112233")))
    #expect(a != SecureBytes(bytes("00112234")))
    #expect(a != SecureBytes(bytes("80112233")))
    #expect(a != SecureBytes(bytes("001122")))
    #expect(a != SecureBytes(bytes("0011223300")))
    #expect(SecureBytes([UInt8]()) == SecureBytes([UInt8]()))
  }

  @Test func slicing() {
    let a = SecureBytes(counting(10))
    #expect(a[2..<5].revealHex() == "020304")
    #expect(a[0..<0].count == 0)
    #expect(a[0..<10] == a)
    #expect(a[9..<10].revealHex() == "09")
  }

  @Test func concatenation() {
    let joined = SecureBytes(bytes("0102")) + SecureBytes(bytes("030405"))
    #expect(joined.revealHex() == "0102030405")
    #expect((SecureBytes([UInt8]()) + SecureBytes(bytes("ff"))).revealHex() == "ff")
    #expect((SecureBytes(bytes("ff")) + SecureBytes([UInt8]())).revealHex() == "ff")
  }

  @Test func withUnsafeBytesSeesContent() {
    let a = SecureBytes(bytes("deadbeef"))
    #expect(a.withUnsafeBytes { Array($0) } == [0xde, 0xad, 0xbe, 0xef])
    #expect(SecureBytes([UInt8]()).withUnsafeBytes { $0.count } == 0)
  }

  @Test func descriptionsRedact() {
    let secret = SecureBytes(bytes("deadbeefcafe"))
    #expect(secret.description == "SecureBytes(6 bytes, redacted)")
    #expect(secret.debugDescription == "SecureBytes(6 bytes, redacted)")
    #expect("\(secret)" == "SecureBytes(6 bytes, redacted)")
    #expect(!String(reflecting: secret).contains("dead"))
  }
}

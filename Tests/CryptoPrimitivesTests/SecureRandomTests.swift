import CryptoPrimitives
import Testing

@Suite struct SecureRandomTests {
  /// Two 32-byte draws collide with probability 2^-256, so equality means a broken source.
  @Test func secretDrawsDiffer() {
    let a = SecureRandom.secret(count: 32)
    let b = SecureRandom.secret(count: 32)
    #expect(a.count == 32)
    #expect(a != b)
    #expect(a != SecureBytes([UInt8](repeating: 0, count: 32)))
  }

  @Test func publicDrawsDiffer() {
    let a = SecureRandom.bytes(count: 32)
    #expect(a.count == 32)
    #expect(a != SecureRandom.bytes(count: 32))
  }

  @Test func zeroCount() {
    #expect(SecureRandom.secret(count: 0).count == 0)
    #expect(SecureRandom.bytes(count: 0).isEmpty)
  }
}

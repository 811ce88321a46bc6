import CryptoPrimitives
import Foundation

let phrase = SecureBytes(utf8: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about")
var t = Date()
var seed = PBKDF2.hmacSHA512(password: phrase, salt: Array("mnemonic".utf8), iterations: 2048, keyByteCount: 64)
for _ in 0..<200 { seed = PBKDF2.hmacSHA512(password: phrase, salt: Array("mnemonic".utf8), iterations: 2048, keyByteCount: 64) }
print(Date().timeIntervalSince(t) / 200 * 1000, "ms", seed.revealHex())

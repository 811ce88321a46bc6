import CryptoPrimitives
import Testing
import VaultKeys

@testable import PhraseRecovery

/// The passphrase sets: UTF-8 checked, NFKD applied, and the same passphrases in the same order
/// (pinned by digest) whatever the code that builds them.
@Suite("recover: passphrase sets")
struct PassphraseSetTests {
  /// SHA-256 over every passphrase (its length, then its bytes) and its origin, in order.
  static func fingerprint(_ set: PassphraseSet) -> String {
    var message: [UInt8] = []
    for index in 0..<set.count {
      let passphrase = set.passphrase(index)
      withUnsafeBytes(of: UInt32(passphrase.count).littleEndian) { message += $0 }
      passphrase.withUnsafeBytes { message += $0 }
      message += Array("\(set.origin(index))\n".utf8)
    }
    return Hex.encode(SHA256.hash(message))
  }

  static func bytes(_ values: [UInt8]) -> SecureBytes { SecureBytes(values) }

  @Test func invalidUTF8IsRefused() {
    // A lone continuation byte, an overlong slash, a surrogate, past U+10FFFF, a cut sequence.
    let invalid: [[UInt8]] = [
      [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x61, 0xC3],
    ]
    for sample in invalid {
      #expect(throws: RecoveryError.invalidUTF8) {
        try PassphraseSet(candidates: Self.bytes(Array("ok\n".utf8) + sample + [0x0A]))
      }
      #expect(throws: RecoveryError.invalidUTF8) {
        try PassphraseSet(remembered: Self.bytes(sample), edits: 1)
      }
      #expect(throws: RecoveryError.invalidUTF8) {
        try PassphraseSet(remembered: Self.bytes(Array("é".utf8) + sample), edits: 0)
      }
    }
  }

  @Test func passphrasesAreDecomposed() throws {
    // U+00E9 and e + U+0301 are one passphrase; U+FB01 is "fi"; U+212B is A + U+030A.
    let file = "caf\u{E9}\ncafe\u{301}\n\u{FB01}\n\u{212B}\nplain\n"
    let set = try PassphraseSet(candidates: SecureBytes(utf8: file))
    #expect(set.count == 4)
    #expect(text(set.passphrase(0)).unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0x65, 0x301])
    #expect(text(set.passphrase(1)) == "fi")
    #expect(text(set.passphrase(2)).unicodeScalars.map(\.value) == [0x41, 0x30A])
    #expect(text(set.passphrase(3)) == "plain")
    #expect((0..<4).map(set.origin) == [.line(1), .line(3), .line(4), .line(5)])

    let single = PassphraseSet(passphrase: SecureBytes(utf8: "\u{1E9B}\u{323}"))
    #expect(text(single.passphrase(0)).unicodeScalars.map(\.value) == [0x73, 0x323, 0x307])

    // The remembered passphrase is decomposed, and an edit that puts a mark of a lower class
    // after one of a higher class is put back in canonical order.
    let typos = try PassphraseSet(remembered: SecureBytes(utf8: "\u{1EA1}\u{301}"), edits: 1)
    #expect(text(typos.passphrase(0)).unicodeScalars.map(\.value) == [0x61, 0x323, 0x301])
    let swapped = (0..<typos.count).first {
      text(typos.passphrase($0)).unicodeScalars.map(\.value) == [0x61, 0x301, 0x323]
    }
    #expect(swapped == nil)
  }

  /// Computed with the String-based code of 1fbfeca; any change in which passphrases are made,
  /// their bytes, their order or their edit scripts changes these.
  @Test func theSetsAreUnchangedByteForByte() throws {
    let marks = try PassphraseSet(remembered: SecureBytes(utf8: "a\u{323}\u{301}"), edits: 1)
    #expect(marks.count == 676)
    #expect(
      Self.fingerprint(marks)
        == "b407748b3285ef3fc2d68288e9853855d457d7406e3d45755371b878cd898377")
    let twice = try PassphraseSet(remembered: SecureBytes(utf8: "\u{E9}"), edits: 2)
    #expect(twice.count == 100324)
    #expect(
      Self.fingerprint(twice)
        == "3a81dd01e932ad7362d04d2018b71b7d6167f48316aea11085c02b90b5a1bcae")
    let accented = try PassphraseSet(remembered: SecureBytes(utf8: "\u{F1}\u{E9}Zz"), edits: 1)
    #expect(accented.count == 1261)
    #expect(
      Self.fingerprint(accented)
        == "8adaa8025aa8da3d256451716999ff5eb88d2ec0d7934425953f3f9c0729e3bf")
    let file = "caf\u{E9}\n\r\ncafe\u{301}\r\n\u{FB01}\n\u{212B}\u{1100}\u{AC00}\nx\n\n"
    let candidates = try PassphraseSet(candidates: SecureBytes(utf8: file))
    #expect(candidates.count == 5)
    #expect(
      Self.fingerprint(candidates)
        == "fa38bab72a78c40b1a08d22e07017157440a5f34339edbc5b2db01f9775f241e")
  }
}

import Foundation

/// Unicode NFKD, the form BIP-39 prescribes for the sentence and the passphrase. The one place
/// that needs full Foundation (ICU): everything else uses FoundationEssentials, and ASCII text,
/// which NFKD leaves unchanged, never reaches it.
enum UnicodeNormalization {
  /// Whether every byte of `text` is ASCII, so that NFKD and NFC leave it unchanged.
  static func isASCII(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 }
  }

  /// `text` in NFKD (compatibility decomposition).
  static func nfkd(_ text: String) -> String {
    isASCII(text) ? text : text.decomposedStringWithCompatibilityMapping
  }
}

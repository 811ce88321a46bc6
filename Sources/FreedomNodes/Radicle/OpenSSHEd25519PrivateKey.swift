import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An unencrypted OpenSSH private key file (`openssh-key-v1`, PROTOCOL.key) holding one Ed25519
/// key, the form Radicle reads from `~/.radicle/keys/radicle`.
///
/// The two "check" integers of the private section are normally random. Here they are the first
/// four bytes of SHA-256(`"freedom-keys openssh checkint v1"` ‖ public key), so exporting the same
/// key twice gives byte-identical files; they only detect a wrong passphrase, which an
/// unencrypted file does not have, so nothing is lost.
package enum OpenSSHEd25519PrivateKey {
  /// The armor line before the base64 body.
  package static let beginLine = "-----BEGIN OPENSSH PRIVATE KEY-----"
  /// The armor line after the base64 body.
  package static let endLine = "-----END OPENSSH PRIVATE KEY-----"
  /// Base64 characters per line, as ssh-keygen writes.
  package static let lineLength = 70

  static let magic = Array("openssh-key-v1\0".utf8)
  static let checkDomain = Array("freedom-keys openssh checkint v1".utf8)
  /// The cipher block size of `none`, to which the private section is padded.
  static let blockSize = 8

  /// The PEM file for `privateKey` with `comment` (often `user@host`; may be empty).
  package static func pem(privateKey: Ed25519.PrivateKey, comment: String) -> SecureBytes {
    let base64 = SecureBase64.encode(binary(privateKey: privateKey, comment: comment))
    let lineCount = (base64.count + lineLength - 1) / lineLength
    let begin = Array((beginLine + "\n").utf8)
    let end = Array((endLine + "\n").utf8)
    return SecureBytes(count: begin.count + base64.count + lineCount + end.count) { out in
      var cursor = SecureByteCursor(out)
      cursor.append(begin)
      base64.withUnsafeBytes { text in
        for start in stride(from: 0, to: text.count, by: lineLength) {
          cursor.append(
            UnsafeRawBufferPointer(rebasing: text[start..<min(start + lineLength, text.count)]))
          cursor.append(UInt8(ascii: "\n"))
        }
      }
      cursor.append(end)
    }
  }

  /// The number of padding bytes (1, 2, 3, …) that bring `length` to a multiple of the block
  /// size: 0 when it already is one, never a whole block.
  static func paddingCount(forPrivateSectionLength length: Int) -> Int {
    (blockSize - length % blockSize) % blockSize
  }

  /// The check integer for `publicKey` (see the type's documentation).
  static func checkInteger(_ publicKey: Ed25519.PublicKey) -> UInt32 {
    let digest = SHA256.hash(checkDomain + publicKey.rawRepresentation)
    return digest[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// The binary key file before base64 armoring.
  static func binary(privateKey: Ed25519.PrivateKey, comment: String) -> SecureBytes {
    let publicKey = privateKey.publicKey.rawRepresentation
    let publicBlob = OpenSSH.publicKeyBlob(privateKey.publicKey)
    let keyType = Array(OpenSSH.ed25519KeyType.utf8)
    let commentBytes = Array(comment.utf8)
    let check = checkInteger(privateKey.publicKey)
    // check ‖ check ‖ string(type) ‖ string(pk) ‖ string(seed ‖ pk) ‖ string(comment)
    let unpadded =
      8 + (4 + keyType.count) + (4 + publicKey.count) + (4 + 64) + (4 + commentBytes.count)
    let padding = paddingCount(forPrivateSectionLength: unpadded)
    let none = Array("none".utf8)
    let total =
      magic.count + (4 + none.count) * 2 + 4 + 4 + (4 + publicBlob.count) + 4 + unpadded + padding
    return SecureBytes(count: total) { out in
      var cursor = SecureByteCursor(out)
      cursor.append(magic)
      cursor.append(uint32: UInt32(none.count))
      cursor.append(none)  // cipher
      cursor.append(uint32: UInt32(none.count))
      cursor.append(none)  // kdf
      cursor.append(uint32: 0)  // kdf options
      cursor.append(uint32: 1)  // number of keys
      cursor.append(uint32: UInt32(publicBlob.count))
      cursor.append(publicBlob)
      cursor.append(uint32: UInt32(unpadded + padding))
      cursor.append(uint32: check)
      cursor.append(uint32: check)
      cursor.append(uint32: UInt32(keyType.count))
      cursor.append(keyType)
      cursor.append(uint32: UInt32(publicKey.count))
      cursor.append(publicKey)
      cursor.append(uint32: 64)
      cursor.append(privateKey.rawRepresentation)
      cursor.append(publicKey)
      cursor.append(uint32: UInt32(commentBytes.count))
      cursor.append(commentBytes)
      for i in 0..<padding { cursor.append(UInt8(i + 1)) }
      precondition(cursor.offset == total, "OpenSSH key length miscomputed")
    }
  }

  /// The key and comment of an unencrypted OpenSSH Ed25519 private key file, after checking the
  /// format, the check integers, the padding and that the public key belongs to the seed.
  package static func parse(pem bytes: some ContiguousBytes) throws(OpenSSHKeyError) -> (
    Ed25519.PrivateKey, comment: String
  ) {
    let pem = bytes as? SecureBytes ?? SecureBytes(bytes)
    guard let bodyRange = pem.withUnsafeBytes(armoredBody) else { throw .notAnOpenSSHPrivateKey }
    guard let body = SecureBase64.decode(pem[bodyRange]) else { throw .invalidBase64 }
    let parsed: Result<(Ed25519.PrivateKey, String), OpenSSHKeyError> = body.withUnsafeBytes {
      bytes in
      do throws(OpenSSHKeyError) {
        return .success(try decode(bytes))
      } catch {
        return .failure(error)
      }
    }
    let (key, comment) = try parsed.get()
    return (key, comment: comment)
  }

  /// The range between the BEGIN and END armor lines (surrounding whitespace allowed).
  private static func armoredBody(_ text: UnsafeRawBufferPointer) -> Range<Int>? {
    let begin = Array(beginLine.utf8)
    let end = Array(endLine.utf8)
    var start = 0
    while start < text.count, isWhitespace(text[start]) { start += 1 }
    var stop = text.count
    while stop > start, isWhitespace(text[stop - 1]) { stop -= 1 }
    guard stop - start >= begin.count + end.count,
      text[start..<start + begin.count].elementsEqual(begin),
      text[stop - end.count..<stop].elementsEqual(end)
    else { return nil }
    return start + begin.count..<stop - end.count
  }

  private static func isWhitespace(_ char: UInt8) -> Bool {
    char == 0x20 || char == 0x09 || char == 0x0A || char == 0x0D
  }

  private static func decode(_ bytes: UnsafeRawBufferPointer) throws(OpenSSHKeyError) -> (
    Ed25519.PrivateKey, String
  ) {
    var reader = WireReader(bytes: bytes)
    guard try reader.take(magic.count, "the magic").elementsEqual(magic) else { throw .badMagic }
    let cipher = try reader.string("the cipher name")
    let kdf = try reader.string("the KDF name")
    let kdfOptions = try reader.string("the KDF options")
    guard cipher.elementsEqual("none".utf8), kdf.elementsEqual("none".utf8), kdfOptions.isEmpty
    else {
      throw .encrypted(cipher: String(decoding: cipher.prefix(32), as: UTF8.self))
    }
    let keyCount = try reader.uint32("the key count")
    guard keyCount == 1 else { throw .unsupportedKeyCount(Int(keyCount)) }

    let publicBlob = try reader.string("the public key")
    var publicReader = WireReader(bytes: UnsafeRawBufferPointer(rebasing: publicBlob))
    let publicType = try publicReader.string("the public key type")
    guard publicType.elementsEqual(OpenSSH.ed25519KeyType.utf8) else {
      throw .unsupportedKeyType(String(decoding: publicType.prefix(32), as: UTF8.self))
    }
    let publicKey = try publicReader.string("the public key")
    guard publicKey.count == Ed25519.PublicKey.byteCount, publicReader.isAtEnd else {
      throw .malformed("the public key blob is not an Ed25519 key")
    }

    let section = try reader.string("the private section")
    guard reader.isAtEnd else { throw .malformed("data after the private section") }
    guard section.count % blockSize == 0 else {
      throw .malformed("the private section is not a multiple of \(blockSize) bytes")
    }
    var privateReader = WireReader(bytes: UnsafeRawBufferPointer(rebasing: section))
    let check1 = try privateReader.uint32("the first check integer")
    let check2 = try privateReader.uint32("the second check integer")
    guard check1 == check2 else { throw .checkMismatch }
    let privateType = try privateReader.string("the private key type")
    guard privateType.elementsEqual(OpenSSH.ed25519KeyType.utf8) else {
      throw .unsupportedKeyType(String(decoding: privateType.prefix(32), as: UTF8.self))
    }
    let innerPublic = try privateReader.string("the private section's public key")
    guard innerPublic.elementsEqual(publicKey) else { throw .publicKeyMismatch }
    let secret = try privateReader.string("the secret key")
    guard secret.count == 64 else {
      throw .malformed("the Ed25519 secret key must be 64 bytes, got \(secret.count)")
    }
    guard secret[(secret.startIndex + 32)...].elementsEqual(publicKey) else {
      throw .publicKeyMismatch
    }
    let commentBytes = try privateReader.string("the comment")
    guard let comment = String(validating: commentBytes, as: UTF8.self) else {
      throw .malformed("the comment is not UTF-8")
    }
    let padding = privateReader.rest
    guard padding.count < blockSize else { throw .fullPaddingBlock }
    guard padding.enumerated().allSatisfy({ $0.element == UInt8($0.offset + 1) }) else {
      throw .invalidPadding
    }

    let seed = SecureBytes(UnsafeRawBufferPointer(rebasing: secret.prefix(32)))
    guard let key = try? Ed25519.PrivateKey(rawRepresentation: seed),
      key.publicKey.rawRepresentation.elementsEqual(publicKey)
    else { throw .publicKeyMismatch }
    return (key, comment)
  }
}

/// Reads RFC 4251 `uint32` and `string` values, failing on truncation.
private struct WireReader {
  let bytes: UnsafeRawBufferPointer
  var offset = 0

  var isAtEnd: Bool { offset == bytes.count }
  var rest: Slice<UnsafeRawBufferPointer> { bytes[offset...] }

  mutating func take(_ count: Int, _ what: String) throws(OpenSSHKeyError) -> Slice<
    UnsafeRawBufferPointer
  > {
    guard count <= bytes.count - offset else { throw .malformed("truncated at \(what)") }
    defer { offset += count }
    return bytes[offset..<offset + count]
  }

  mutating func uint32(_ what: String) throws(OpenSSHKeyError) -> UInt32 {
    try take(4, what).reduce(0) { $0 << 8 | UInt32($1) }
  }

  mutating func string(_ what: String) throws(OpenSSHKeyError) -> Slice<UnsafeRawBufferPointer> {
    let count = try uint32(what)
    return try take(Int(count), what)
  }
}

/// Why an OpenSSH private key file could not be read.
package enum OpenSSHKeyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text lacks the `-----BEGIN/END OPENSSH PRIVATE KEY-----` lines.
  case notAnOpenSSHPrivateKey
  /// The body is not valid base64.
  case invalidBase64
  /// The body does not start with `openssh-key-v1\0`.
  case badMagic
  /// The key is protected by a passphrase.
  case encrypted(cipher: String)
  /// The file holds a number of keys other than one.
  case unsupportedKeyCount(Int)
  /// The key is not `ssh-ed25519`.
  case unsupportedKeyType(String)
  /// The structure is broken (truncated, wrong lengths, trailing data); the text says where.
  case malformed(String)
  /// The two check integers differ.
  case checkMismatch
  /// The public key does not belong to the private key, or its copies disagree.
  case publicKeyMismatch
  /// The padding is not the sequence 1, 2, 3, ….
  case invalidPadding
  /// A whole block (8 bytes) of padding, which older desktop Freedom exports wrote. OpenSSH's
  /// own reader tolerates it; the Rust `ssh-key` crate that Radicle uses rejects it.
  case fullPaddingBlock

  package var description: String {
    switch self {
    case .notAnOpenSSHPrivateKey:
      "not an OpenSSH private key: the '-----BEGIN OPENSSH PRIVATE KEY-----' armor is missing"
    case .invalidBase64: "the OpenSSH private key's body is not valid base64"
    case .badMagic: "the OpenSSH private key does not start with 'openssh-key-v1'"
    case .encrypted(let cipher):
      "the OpenSSH private key is encrypted (\(cipher)); remove the passphrase with "
        + "'ssh-keygen -p -N \"\" -f FILE' on a copy first"
    case .unsupportedKeyCount(let count):
      "the OpenSSH file holds \(count) keys; exactly one is supported"
    case .unsupportedKeyType(let type): "the OpenSSH key is '\(type)', not ssh-ed25519"
    case .malformed(let detail): "malformed OpenSSH private key: \(detail)"
    case .checkMismatch: "the OpenSSH private key's check integers differ; the file is corrupt"
    case .publicKeyMismatch:
      "the OpenSSH private key's public key does not match its private key; the file is corrupt"
    case .invalidPadding: "the OpenSSH private key's padding is not 1, 2, 3, …; the file is corrupt"
    case .fullPaddingBlock:
      "the OpenSSH private key has a whole 8-byte block of padding (written by older desktop "
        + "Freedom); Radicle rejects it: export the key again"
    }
  }
}

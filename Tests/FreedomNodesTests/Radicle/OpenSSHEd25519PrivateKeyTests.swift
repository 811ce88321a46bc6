import CryptoPrimitives
import Foundation
import TestSupport
import Testing

@testable import FreedomNodes
@testable import VaultKeys

/// SLIP-0010 test vector 1, ed25519, chain m: a published key.
private let seedHex = "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7"
private let publicKeyLine =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKSyhWv+xRCrq4l1P6wawOERI2Tn0lBUWWPxNfKjMYjt"
private let fingerprint = "SHA256:D9DryN7HCKiD6Kxxt4hG5Un/GyVkY7FwxSQaDWQdU5c"

/// The expected file for comment "radicle", built independently in Python from PROTOCOL.key.
private let radiclePEM = """
  -----BEGIN OPENSSH PRIVATE KEY-----
  b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
  QyNTUxOQAAACCksoVr/sUQq6uJdT+sGsDhESNk59JQVFlj8TXyozGI7QAAAJC5HzxeuR88
  XgAAAAtzc2gtZWQyNTUxOQAAACCksoVr/sUQq6uJdT+sGsDhESNk59JQVFlj8TXyozGI7Q
  AAAEArS+fxnuJ7vzDGZ7ZC1fSqaf0WmHL4/DBZwI664usZ56SyhWv+xRCrq4l1P6wawOER
  I2Tn0lBUWWPxNfKjMYjtAAAAB3JhZGljbGUBAgMEBQY=
  -----END OPENSSH PRIVATE KEY-----

  """

private func key() throws -> Ed25519.PrivateKey {
  try Ed25519.PrivateKey(rawRepresentation: SecureBytes(try #require(Hex.decode(seedHex))))
}

private func pemText(_ bytes: SecureBytes) -> String {
  bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

/// A comment of `count` ASCII characters.
private func comment(_ count: Int) -> String {
  String(repeating: "x", count: count)
}

/// Armors `blob` the way ssh-keygen does.
private func armor(_ blob: [UInt8]) -> SecureBytes {
  let body = Data(blob).base64EncodedString()
  var lines: [String] = []
  var index = body.startIndex
  while index < body.endIndex {
    let next = body.index(index, offsetBy: 70, limitedBy: body.endIndex) ?? body.endIndex
    lines.append(String(body[index..<next]))
    index = next
  }
  return SecureBytes(
    utf8: "-----BEGIN OPENSSH PRIVATE KEY-----\n" + lines.joined(separator: "\n")
      + "\n-----END OPENSSH PRIVATE KEY-----\n")
}

private func parseError(_ pem: SecureBytes) -> OpenSSHKeyError? {
  do {
    _ = try OpenSSHEd25519PrivateKey.parse(pem: pem)
    return nil
  } catch {
    return error
  }
}

/// The PEM text of `bytes` (VaultKeysTests' helper of the same name).
private func text(_ bytes: SecureBytes) -> String {
  bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

/// Offset of the private section's length field in the binary for this key (fixed layout).
private let privateSectionLengthOffset = 15 + 8 + 8 + 4 + 4 + 4 + 51

@Suite struct OpenSSHEd25519PrivateKeyTests {
  @Test func exactBytesForAKnownKey() throws {
    #expect(
      text(OpenSSHEd25519PrivateKey.pem(privateKey: try key(), comment: "radicle")) == radiclePEM)
  }

  @Test func repeatedExportsAreByteIdentical() throws {
    for length in [0, 5, 16] {
      let a = OpenSSHEd25519PrivateKey.pem(privateKey: try key(), comment: comment(length))
      let b = OpenSSHEd25519PrivateKey.pem(privateKey: try key(), comment: comment(length))
      #expect(a == b)
    }
  }

  /// The private section is 131 + comment bytes; padding brings it to a multiple of 8 and is
  /// never a whole block (desktop Freedom's bug).
  @Test(arguments: 0...16)
  func paddingIsMinimal(commentLength: Int) throws {
    let blob = OpenSSHEd25519PrivateKey.binary(
      privateKey: try key(), comment: comment(commentLength)
    )
    .withUnsafeBytes { Array($0) }
    let sectionLength = blob[privateSectionLengthOffset..<privateSectionLengthOffset + 4].reduce(0)
    { $0 << 8 | Int($1) }
    let expectedPadding = (8 - (131 + commentLength) % 8) % 8
    #expect(sectionLength == 131 + commentLength + expectedPadding)
    #expect(sectionLength % 8 == 0)
    #expect(blob.count == privateSectionLengthOffset + 4 + sectionLength)
    #expect(Array(blob.suffix(expectedPadding)) == (0..<expectedPadding).map { UInt8($0 + 1) })
    #expect(
      blob[blob.count - expectedPadding - commentLength..<blob.count - expectedPadding].allSatisfy {
        $0 == UInt8(ascii: "x")
      })
  }

  @Test(arguments: 0...16)
  func parseRoundTrip(commentLength: Int) throws {
    let pem = OpenSSHEd25519PrivateKey.pem(privateKey: try key(), comment: comment(commentLength))
    let (parsed, parsedComment) = try OpenSSHEd25519PrivateKey.parse(pem: pem)
    #expect(parsed.rawRepresentation.revealHex() == seedHex)
    #expect(parsedComment == comment(commentLength))
  }

  @Test func unicodeCommentRoundTrips() throws {
    let pem = OpenSSHEd25519PrivateKey.pem(privateKey: try key(), comment: "ñ@höst ✓")
    #expect(try OpenSSHEd25519PrivateKey.parse(pem: pem).comment == "ñ@höst ✓")
  }

  @Test func sshKeygenAcceptsEveryPaddingLength() throws {
    guard let sshKeygen = which("ssh-keygen") else {
      try Test.cancel(
        "ssh-keygen is not installed (apt-get install openssh-client); cannot cross-check with OpenSSH"
      )
    }
    let dir = try TemporaryDirectory()
    for length in 0...16 {
      let path = dir.file("key\(length)")
      try writePrivateFile(
        OpenSSHEd25519PrivateKey.pem(privateKey: try key(), comment: comment(length)), to: path)
      let (status, stdout, stderr) = try run(sshKeygen, ["-y", "-f", path])
      #expect(status == 0, "comment length \(length): \(stderr)")
      #expect(
        stdout == publicKeyLine + (length == 0 ? "" : " " + comment(length)) + "\n",
        "comment length \(length)")
      let (fpStatus, fpOut, fpErr) = try run(sshKeygen, ["-l", "-f", path])
      #expect(fpStatus == 0, "comment length \(length): \(fpErr)")
      #expect(
        fpOut == "256 \(fingerprint) \(comment(length)) (ED25519)\n", "comment length \(length)")
    }
    #expect(OpenSSH.fingerprint(try key().publicKey) == fingerprint)
    #expect(OpenSSH.authorizedKeyLine(try key().publicKey) == publicKeyLine)
  }

  @Test func parsesAKeyMadeBySshKeygen() throws {
    guard let sshKeygen = which("ssh-keygen") else {
      try Test.cancel(
        "ssh-keygen is not installed (apt-get install openssh-client); cannot cross-check with OpenSSH"
      )
    }
    let dir = try TemporaryDirectory()
    let path = dir.file("id_ed25519")
    let (status, _, stderr) = try run(
      sshKeygen, ["-q", "-t", "ed25519", "-N", "", "-C", "alice@example", "-f", path])
    try #require(status == 0, "\(stderr)")
    let (parsed, parsedComment) = try OpenSSHEd25519PrivateKey.parse(
      pem: SecureBytes(try readBytes(path)))
    #expect(parsedComment == "alice@example")
    let publicLine = String(decoding: try readBytes(path + ".pub"), as: UTF8.self)
    #expect(
      publicLine == OpenSSH.authorizedKeyLine(parsed.publicKey, comment: "alice@example") + "\n")

    let encrypted = dir.file("id_encrypted")
    let (encStatus, _, encErr) = try run(
      sshKeygen, ["-q", "-t", "ed25519", "-N", "a passphrase", "-f", encrypted])
    try #require(encStatus == 0, "\(encErr)")
    #expect(parseError(SecureBytes(try readBytes(encrypted))) == .encrypted(cipher: "aes256-ctr"))
  }

  @Test func rejectsAFullBlockOfPadding() throws {
    // Comment length 5 makes the section exactly 136 bytes; desktop Freedom added 8 more.
    var blob = OpenSSHEd25519PrivateKey.binary(privateKey: try key(), comment: comment(5))
      .withUnsafeBytes { Array($0) }
    blob += (1...8).map { UInt8($0) }
    let length = UInt32(136 + 8)
    blob.replaceSubrange(
      privateSectionLengthOffset..<privateSectionLengthOffset + 4,
      with: withUnsafeBytes(of: length.bigEndian) { Array($0) })
    #expect(parseError(armor(blob)) == .fullPaddingBlock)
  }

  @Test func rejectsCorruption() throws {
    let good = OpenSSHEd25519PrivateKey.binary(privateKey: try key(), comment: "radicle")
      .withUnsafeBytes { Array($0) }
    let section = privateSectionLengthOffset + 4
    #expect(parseError(armor(good)) == nil)

    var checks = good
    checks[section + 7] ^= 1
    #expect(parseError(armor(checks)) == .checkMismatch)

    var padding = good
    padding[padding.count - 1] = 9
    #expect(parseError(armor(padding)) == .invalidPadding)

    var innerPublic = good
    innerPublic[section + 8 + 15 + 4] ^= 1  // first byte of the private section's public key
    #expect(parseError(armor(innerPublic)) == .publicKeyMismatch)

    var seed = good
    seed[section + 8 + 15 + 36 + 4] ^= 1  // first seed byte: the public key no longer matches
    #expect(parseError(armor(seed)) == .publicKeyMismatch)

    var magic = good
    magic[0] = UInt8(ascii: "O")
    #expect(parseError(armor(magic)) == .badMagic)

    #expect(
      parseError(armor(Array(good.dropLast(3)))) == .malformed("truncated at the private section"))
    #expect(parseError(SecureBytes(utf8: "ssh-ed25519 AAAA")) == .notAnOpenSSHPrivateKey)
    #expect(
      parseError(
        SecureBytes(
          utf8: "-----BEGIN OPENSSH PRIVATE KEY-----\n!!!!\n-----END OPENSSH PRIVATE KEY-----\n"))
        == .invalidBase64)
  }

  @Test func acceptsCRLFAndSurroundingWhitespace() throws {
    let crlf = "\n  " + radiclePEM.replacingOccurrences(of: "\n", with: "\r\n")
    let (parsed, parsedComment) = try OpenSSHEd25519PrivateKey.parse(pem: SecureBytes(utf8: crlf))
    #expect(parsed.rawRepresentation.revealHex() == seedHex)
    #expect(parsedComment == "radicle")
  }
}

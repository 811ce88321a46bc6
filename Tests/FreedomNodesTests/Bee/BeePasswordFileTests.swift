import CryptoPrimitives
import Testing

@testable import FreedomNodes

/// bee's one rule for a password file, shared by `export bee`, `verify` and `keystore inspect`.
@Suite struct BeePasswordFileTests {
  private func password(_ bytes: [UInt8]) throws(Bee.PasswordFileProblem) -> [UInt8] {
    try Bee.password(fromFile: SecureBytes(bytes)).withUnsafeBytes { Array($0) }
  }

  @Test func lineFeedsAreTrimmedOtherWhitespaceKept() throws {
    #expect(try password(Array("\n\nsecret\n\n".utf8)) == Array("secret".utf8))
    #expect(try password(Array(" secret\r\n".utf8)) == Array(" secret\r".utf8))
    #expect(try password(Array("a\nb".utf8)) == Array("a\nb".utf8))
  }

  @Test func aByteOrderMarkOrNothingIsRefused() {
    #expect(throws: Bee.PasswordFileProblem.byteOrderMark) {
      try password([0xEF, 0xBB, 0xBF] + Array("secret".utf8))
    }
    #expect(throws: Bee.PasswordFileProblem.empty) { try password(Array("\n\n".utf8)) }
    #expect(throws: Bee.PasswordFileProblem.empty) { try password([]) }
  }

  @Test func reasonsFollowTheFileName() {
    #expect(Bee.PasswordFileProblem.empty.reason == "is empty")
    #expect(
      Bee.PasswordFileProblem.byteOrderMark.reason
        == "starts with a UTF-8 byte order mark, which bee would read as part of the password; "
        + "save the file without it")
  }

  @Test func aNodeDirectoryNamesThePath() {
    do {
      _ = try Bee.password(fromFile: SecureBytes([0x0A]), path: "/p")
      Issue.record("an empty password was accepted")
    } catch {
      guard case .invalidInput(.emptyPasswordFile("/p")) = error else {
        Issue.record("\(error)")
        return
      }
    }
  }
}

import Foundation
import Testing

/// Text read from a file reaches the terminal as error lines do: each control character (an
/// escape sequence, a carriage return, a bell, a newline) shown as '?', so a file someone hands
/// over can neither move the cursor nor write a line of its own ("Password  correct").
@Suite("text from files")
struct FileTextEscapingTests {
  /// Erase the line, go back to its start, ring the bell, then a line of our own.
  static let hostile = "\u{1B}[2K\r\u{07}Password        correct\n"
  static let shown = "?[2K??Password        correct?"

  /// Whether `text` holds a control character other than the newlines that end lines.
  static func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
    }
  }

  static let scryptKeystoreURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("GoldenVectors/Vectors/keystores/eth-keyfile-scrypt.json")

  @Test func aKeystoresIDIsShownOneLine() throws {
    let fixture = try ExportFixture()
    let original = String(decoding: try Data(contentsOf: Self.scryptKeystoreURL), as: UTF8.self)
    let id = "bc708a03-daf5-4afc-ad13-6eb373c642c8"
    // JSON's escapes for the control characters: the file is valid JSON.
    let escapedInJSON = "\\u001b[2K\\r\\u0007Password        correct\\n"
    let path = try fixture.file(
      "keystore.json", original.replacingOccurrences(of: id, with: id + escapedInJSON))
    let run = try CLI.run(["keystore", "inspect", path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == "")
    #expect(!Self.hasControl(run.stdout))
    #expect(
      run.stdout == """
        Address         0x008AeEda4D805471dF9b2A5B0f38A0C3bCBA786b
        ID              \(id)\(Self.shown)
        Cipher          aes-128-ctr
        KDF             scrypt
        KDF parameters  n=1024 (2^10), r=8, p=1
        Salt            1930762d27a2461f2f18823a861a718b
        Password        not checked (--password-file checks it)

        """)
    // JSON keeps the id as it is, escaped as JSON escapes it.
    let json = try CLI.run(["keystore", "inspect", path, "--json"])
    #expect(json.stdout.contains("\"id\": \"\(id)\\u001b[2K\\r\\u0007Password"), "\(json.stdout)")
  }

  @Test func kubosPeerIDIsShownOneLine() throws {
    let fixture = try ExportFixture()
    let repo = fixture.path("ipfs")
    try makeDirectory(repo)
    _ = try fixture.file(
      "ipfs/config",
      "{\"Identity\": {\"PeerID\": \"12D3\\u001b[2K\\r\\u0007Password        correct\\n\"}}\n")
    let run = try fixture.run(["verify", "--kubo-repo", repo])
    #expect(run.status == 3, "\(run.stderr)")
    #expect(!Self.hasControl(run.stdout))
    #expect(!Self.hasControl(run.stderr))
    #expect(
      run.stdout
        == "kubo  MISMATCH  expected \(Golden.peerID), found 12D3\(Self.shown) without PrivKey\n")
  }

  @Test func aProfilesDisplayNameIsShownOneLine() throws {
    let fixture = try ExportFixture()
    let root = fixture.path("Freedom")
    try makeDirectory(root)
    _ = try fixture.file(
      "Freedom/profile-registry.json",
      """
      {"version": 1, "profiles": [
        {"id": "default", "displayName": "Mine\\u001b[2K\\r\\u0007Password        correct\\n",
         "slot": 0}
      ]}
      """)
    _ = try fixture.file("Freedom/profile.json", #"{"id": "default", "slot": 0}"#)
    let run = try fixture.run(["verify", "--freedom-dir", root])
    #expect(!Self.hasControl(run.stdout), "\(run.stdout)")
    #expect(!Self.hasControl(run.stderr), "\(run.stderr)")
    #expect(
      run.stdout.contains("default \"Mine\(Self.shown)\": slot 0, Radicle home "), "\(run.stdout)"
    )
  }
}

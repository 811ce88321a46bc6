import Foundation
import Testing

@Suite("export ant")
struct ExportAntTests {
  /// What iOS writes: sorted members, " : ", no final newline (176 bytes); with another nonce
  /// when given.
  static func identity(
    _ signingKey: String, nonce: String = String(repeating: "0", count: 64)
  ) -> String {
    "{\n  \"overlay_nonce\" : \"\(nonce)\",\n" + "  \"signing_key\" : \"\(signingKey)\"\n}"
  }

  @Test func identityFile() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    let run = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Wrote \(dir)/identity.json: Swarm key \(Golden.swarmAddress), overlay nonce 0 (mode 0600)
        Overlay on mainnet: \(Golden.swarmOverlay)

        """)
    #expect(text(dir + "/identity.json") == Self.identity(Golden.swarmPrivateKey))
    #expect(fileMode(dir) == 0o700)
    #expect(fileMode(dir + "/identity.json") == 0o600)
    #expect(tree(dir) == ["identity.json"])

    let again = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(again.status == 0)
    #expect(
      again.stdout
        == "\(dir)/identity.json already holds the Swarm key \(Golden.swarmAddress); nothing to do\n"
    )
    #expect(text(dir + "/identity.json") == Self.identity(Golden.swarmPrivateKey))
  }

  @Test func anotherIdentityIsReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    #expect(try fixture.run(["export", "ant", "--data-dir", dir], other: true).status == 0)
    let before = contents(dir + "/identity.json")
    let refused = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr
        == "freedom-keys: error: \(dir)/identity.json holds the key of \(Golden.otherSwarmAddress), "
        + "not the mnemonic's \(Golden.swarmAddress); nothing was written (--force replaces it)\n")
    #expect(contents(dir + "/identity.json") == before)

    let forced = try fixture.run(["export", "ant", "--data-dir", dir, "--force"])
    #expect(forced.status == 0)
    #expect(text(dir + "/identity.json") == Self.identity(Golden.swarmPrivateKey))
    #expect(fileMode(dir + "/identity.json") == 0o600)
  }

  @Test func readOnlyDirectoryFailsCleanly() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let restore = try makeReadOnlyDirectory(dir)
    defer { restore() }
    let run = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix(
        "freedom-keys: error: permission denied: could not create the lock file "
          + "\(dir)/.freedom-keys.lock; "))
    #expect(tree(dir) == [])
  }
}

@Suite("Ant's own rules")
struct AntRulesTests {
  static let zeros = String(repeating: "0", count: 64)

  @Test func aFileAntWouldRefuseIsRepairedWithoutForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    _ = try fixture.file(
      "ant/identity.json",
      "{\"signing_key\": \"0x\(Golden.swarmPrivateKey)\", \"overlay_nonce\": \"\(Self.zeros)\"}")
    let verify = try fixture.run(["verify", "--ant-dir", dir])
    #expect(verify.status == 3)
    // Reworded: Ant's library takes a lowercase 0x (ant_identity_from_key), antd does not.
    #expect(
      verify.stdout
        == "ant  MISMATCH  expected \(Golden.swarmAddress), found \(Golden.swarmAddress) — "
        + "'signing_key' starts with 0x: antd refuses it and will not start; Ant's library "
        + "accepts a lowercase 0x\n")

    let run = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(run.status == 0)
    #expect(run.stdout.contains("Repaired: 'signing_key' starts with 0x"))
    #expect(text(dir + "/identity.json") == ExportAntTests.identity(Golden.swarmPrivateKey))
    #expect(try fixture.run(["verify", "--ant-dir", dir]).status == 0)
  }

  @Test func aNonZeroNonceIsReportedWithItsOverlayAndReplacedOnlyWithForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let nonce = "ff" + String(repeating: "0", count: 62)
    let original =
      "{\"signing_key\":\"\(Golden.swarmPrivateKey)\",\"overlay_nonce\":\"\(nonce)\"}"
    _ = try fixture.file("ant/identity.json", original)
    let verify = try fixture.run(["verify", "--json", "--ant-dir", dir])
    #expect(verify.status == 3)
    #expect(verify.stdout.contains("\"status\": \"mismatch\""))
    #expect(verify.stdout.contains("the overlay nonce is not zero, so Ant's overlay is "))
    #expect(!verify.stdout.contains(Golden.swarmOverlay))

    let refused = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(refused.stderr.contains("the overlay nonce is not zero"))
    #expect(text(dir + "/identity.json") == original)

    let forced = try fixture.run(["export", "ant", "--data-dir", dir, "--force"])
    #expect(forced.status == 0)
    #expect(text(dir + "/identity.json") == ExportAntTests.identity(Golden.swarmPrivateKey))
  }

  @Test func aForeignLibp2pKeypairIsReported() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let other = String(repeating: "11", count: 32)
    _ = try fixture.file(
      "ant/identity.json",
      "{\"signing_key\":\"\(Golden.swarmPrivateKey)\",\"overlay_nonce\":\"\(Self.zeros)\","
        + "\"libp2p_keypair\":\"08021220\(other)\"}")
    let verify = try fixture.run(["verify", "--ant-dir", dir])
    #expect(verify.status == 3)
    #expect(verify.stdout.contains("libp2p_keypair holds the key of 16Uiu2HA"))
    #expect(verify.stdout.contains("Ant derives from the signing key"))
    // Ant's own layout with the derived key is fine.
    _ = try fixture.file(
      "ant/identity.json",
      "{\n  \"signing_key\": \"\(Golden.swarmPrivateKey)\",\n  \"overlay_nonce\": \"\(Self.zeros)\",\n"
        + "  \"libp2p_keypair\": \"08021220\(Golden.swarmPrivateKey)\"\n}")
    #expect(try fixture.run(["verify", "--ant-dir", dir]).status == 0)
  }
}

/// Ant's library restores an identity from a bare key (`ant_identity_from_key`, freedom-hq/ant
/// `crates/ant-ffi/src/lib.rs`) with the overlay nonce keccak256("ant-ffi/overlay-nonce/v1" ‖
/// address). Nonce and overlay of abandon…about's Swarm key computed with pycryptodome's
/// Keccak-256 (as in AntIdentityRestoreTests).
@Suite("Ant's nonce rules")
struct AntNonceTests {
  static let derivedNonce = "e604b3878302ee7ceead2e7c4d54dab1d22e660d5da47f34b3c11d759fadab32"
  static let derivedOverlay = "e9eecc7aa897d49525afbce496b29df4a1d0f52e7edc071d26faf68ae4903b3a"
  static let derived = ExportAntTests.identity(Golden.swarmPrivateKey, nonce: derivedNonce)
  static let restored =
    " (restored from the key as Ant's library does: overlay \(derivedOverlay), not the "
    + "zero-nonce one)"

  @Test func verifyCallsTheLibrarysRestoreAMatch() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    // As Ant's library writes it: its own layout, with the libp2p key it derives.
    _ = try fixture.file(
      "ant/identity.json",
      "{\n  \"signing_key\": \"\(Golden.swarmPrivateKey)\",\n  \"overlay_nonce\": "
        + "\"\(Self.derivedNonce)\",\n  \"libp2p_keypair\": \"08021220\(Golden.swarmPrivateKey)\"\n}"
    )
    let run = try fixture.run(["verify", "--ant-dir", dir])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout == "ant  match     \(Golden.swarmAddress)\(Self.restored)\n")

    let json = try fixture.run(["verify", "--json", "--ant-dir", dir])
    #expect(json.status == 0)
    #expect(
      json.stdout == """
        {
          "ant": {
            "status": "match",
            "expected": "\(Golden.swarmAddress)",
            "found": "\(Golden.swarmAddress)",
            "path": "\(dir)/identity.json",
            "nonce": "derivedFromKey",
            "overlay": "\(Self.derivedOverlay)",
            "acceptedBy": [
              "antd",
              "antLibrary"
            ]
          },
          "ok": true
        }

        """)
  }

  @Test func anotherMnemonicsRestoreIsAMismatch() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    #expect(
      try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "derived"], other: true)
        .status == 0)
    let run = try fixture.run(["verify", "--ant-dir", dir])
    #expect(run.status == 3)
    #expect(
      run.stdout
        == "ant  MISMATCH  expected \(Golden.swarmAddress), found \(Golden.otherSwarmAddress)\n")
  }

  @Test(arguments: [
    ("0x", "[\n      \"antLibrary\"\n    ]"),
    // Ant's library drops a lowercase 0x only: neither reader starts on this one.
    ("0X", "[]"),
  ])
  func aPrefixedKeySaysWhichReadersAcceptIt(prefix: String, readers: String) throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    _ = try fixture.file(
      "ant/identity.json",
      "{\"signing_key\": \"\(prefix)\(Golden.swarmPrivateKey)\", \"overlay_nonce\": "
        + "\"\(AntRulesTests.zeros)\"}")
    let run = try fixture.run(["verify", "--json", "--ant-dir", dir])
    #expect(run.status == 3)
    #expect(run.stdout.contains("\"status\": \"mismatch\""))
    #expect(run.stdout.contains("\"nonce\": \"zero\""))
    #expect(run.stdout.contains("\"acceptedBy\": \(readers)"))
    #expect(run.stdout.contains("antd refuses it and will not start; Ant's library accepts a"))
  }

  @Test func exportWritesTheDerivedNonce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    let run = try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "derived"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Wrote \(dir)/identity.json: Swarm key \(Golden.swarmAddress), the overlay nonce Ant's \
        library derives from the key (mode 0600)
        Overlay on mainnet: \(Self.derivedOverlay) (not the zero-nonce overlay bee and desktop \
        compute)

        """)
    #expect(text(dir + "/identity.json") == Self.derived)
    #expect(fileMode(dir + "/identity.json") == 0o600)
    #expect(fileMode(dir) == 0o700)

    let again = try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "derived"])
    #expect(again.status == 0)
    #expect(
      again.stdout
        == "\(dir)/identity.json already holds the Swarm key \(Golden.swarmAddress) with the "
        + "overlay nonce Ant's library derives from the key; nothing to do\n")
    #expect(text(dir + "/identity.json") == Self.derived)
    #expect(try fixture.run(["verify", "--ant-dir", dir]).stdout.hasSuffix(Self.restored + "\n"))

    // --nonce zero is the default, and iOS's bytes.
    let zero = fixture.path("zero")
    let written = try fixture.run(["export", "ant", "--data-dir", zero, "--nonce", "zero"])
    #expect(written.status == 0)
    #expect(written.stdout.hasSuffix("Overlay on mainnet: \(Golden.swarmOverlay)\n"))
    #expect(text(zero + "/identity.json") == ExportAntTests.identity(Golden.swarmPrivateKey))
  }

  @Test func theLibrarysOwnRestoreIsLeftAlone() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let own =
      "{\"signing_key\":\"\(Golden.swarmPrivateKey)\",\"overlay_nonce\":\"\(Self.derivedNonce)\","
      + "\"libp2p_keypair\":\"08021220\(Golden.swarmPrivateKey)\"}"
    _ = try fixture.file("ant/identity.json", own)
    let run = try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "derived"])
    #expect(run.status == 0)
    #expect(run.stdout.hasSuffix("; nothing to do\n"))
    #expect(text(dir + "/identity.json") == own)
  }

  @Test func theOtherRuleIsAConflictNeedingForce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    #expect(try fixture.run(["export", "ant", "--data-dir", dir]).status == 0)
    let zero = ExportAntTests.identity(Golden.swarmPrivateKey)

    let refused = try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "derived"])
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr
        == "freedom-keys: error: \(dir)/identity.json holds the Swarm key \(Golden.swarmAddress), "
        + "but its overlay nonce is the zero nonce iOS writes (overlay \(Golden.swarmOverlay)), "
        + "not the nonce Ant's library derives from the key (overlay \(Self.derivedOverlay)); "
        + "nothing was written (--force writes the file afresh with the nonce Ant's library "
        + "derives from the key and no libp2p_keypair)\n")
    #expect(text(dir + "/identity.json") == zero)

    let forced = try fixture.run(
      ["export", "ant", "--data-dir", dir, "--nonce", "derived", "--force"])
    #expect(forced.status == 0)
    #expect(forced.stdout.contains("Overlay on mainnet: \(Self.derivedOverlay)"))
    #expect(text(dir + "/identity.json") == Self.derived)

    // And back: the default rule refuses the derived file the same way.
    let back = try fixture.run(["export", "ant", "--data-dir", dir])
    #expect(back.status == 1)
    #expect(
      back.stderr
        == "freedom-keys: error: \(dir)/identity.json holds the Swarm key \(Golden.swarmAddress), "
        + "but its overlay nonce is the nonce Ant's library derives from the key (overlay "
        + "\(Self.derivedOverlay)), not the zero nonce iOS writes (overlay \(Golden.swarmOverlay)); "
        + "nothing was written (--force writes the file afresh with a zero nonce and no "
        + "libp2p_keypair)\n")
    #expect(text(dir + "/identity.json") == Self.derived)
    #expect(try fixture.run(["export", "ant", "--data-dir", dir, "--force"]).status == 0)
    #expect(text(dir + "/identity.json") == zero)
  }

  @Test func theRuleChangeIsListedWithTheOtherChanges() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    let other = String(repeating: "11", count: 32)
    let original =
      "{\"signing_key\":\"\(Golden.swarmPrivateKey)\",\"overlay_nonce\":\"\(AntRulesTests.zeros)\","
      + "\"libp2p_keypair\":\"08021220\(other)\"}"
    _ = try fixture.file("ant/identity.json", original)
    let refused = try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "derived"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("but its overlay nonce is the zero nonce iOS writes"))
    #expect(refused.stderr.contains("; libp2p_keypair holds the key of 16Uiu2HA"))
    #expect(text(dir + "/identity.json") == original)
  }

  @Test func aFileAntdRefusesIsRepairedKeepingTheDerivedNonce() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    try makeDirectory(dir)
    _ = try fixture.file(
      "ant/identity.json",
      "{\"signing_key\": \"0x\(Golden.swarmPrivateKey)\", \"overlay_nonce\": "
        + "\"\(Self.derivedNonce)\"}")
    let run = try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "derived"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("Repaired: 'signing_key' starts with 0x"))
    #expect(text(dir + "/identity.json") == Self.derived)
  }

  @Test func anUnknownRuleIsAUsageError() throws {
    let fixture = try ExportFixture()
    let dir = fixture.path("ant")
    let run = try fixture.run(["export", "ant", "--data-dir", dir, "--nonce", "random"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: --nonce <rule> must be zero or derived "
        + "(see 'freedom-keys export ant --help')\n")
    #expect(!FileManager.default.fileExists(atPath: dir))
  }

  @Test func helpSaysWhatEachRuleIsFor() throws {
    let help = try CLI.run(["export", "ant", "--help"])
    #expect(help.status == 0)
    #expect(
      help.stdout.contains(
        "  --nonce <rule>                Overlay nonce: zero (iOS, default) or derived.\n"))
    let discussion = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      discussion.contains(
        "--nonce zero (the default) writes an all-zero nonce, byte for byte as Freedom's iOS app "
          + "writes it, so Ant has the same overlay address as bee and desktop Freedom."))
    #expect(
      discussion.contains(
        "--nonce derived writes keccak256(\"ant-ffi/overlay-nonce/v1\" ‖ address), the nonce "
          + "Ant's library gives an identity it restores from the key (ant_identity_from_key)"))
  }
}

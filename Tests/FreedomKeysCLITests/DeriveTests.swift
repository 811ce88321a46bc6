import Foundation
import TestSupport
import Testing

/// `derive` on the published test mnemonics, checked against desktop Freedom's golden values
/// (Tests/GoldenVectors/Vectors/freedom-desktop.json) and values recomputed with Python's
/// bip_utils and pycryptodome.
@Suite("derive")
struct DeriveTests {
  static let mnemonic = SecretInputTests.mnemonic
  static let walletAddress = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
  static let seed =
    "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4"
  static let walletPrivateKey = "1ab42cc412b618bdea3a599e3c9bae199ebf030895b039e9db1e30dafb12b727"
  static let swarmPrivateKey = "9a983cb3d832fbde5ab49d692b7a8bf5b5d232479c99333d0fc8e1d21f1b55b6"
  static let ipfsPrivateKey = "6d7c32198dff963096b93296acb383c9b4f2bd85a4e52c123bfee1e5cd00c749"
  static let radiclePrivateKey = "b262e62fc6a558fd045ca68dd7000e30a135f678bc0816935e13ebe6a97e14bd"
  static let kuboPrivKey =
    "CAESQG18MhmN/5Ywlrkylqyzg8m08r2FpOUsEjv+4eXNAMdJkSN61ZWaJeAlSH3uvnu65ETlrC381v0QRC1D3YfvVkc="
  static let trezorSeed =
    "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"

  /// The whole `--json` output, byte for byte: key order, formatting and values.
  static let profileJSON = """
    {
      "mnemonic": {
        "language": "english",
        "words": 12
      },
      "wallet": {
        "path": "m/44'/60'/0'/0/0",
        "address": "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
        "publicKey": "0237b0bb7a8288d38ed49a524b5dc98cff3eb5ca824c9f9dc0dfdb3d9cd600f299"
      },
      "swarm": {
        "path": "m/44'/60'/0'/0/1",
        "address": "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0",
        "publicKey": "039fd0991d0222b4e1339c1a1a5b5f6d9f6a96672a3247b638ee6156d9ea877a2f",
        "networkId": 1,
        "overlayNonce": "0000000000000000000000000000000000000000000000000000000000000000",
        "overlay": "ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279"
      },
      "ipfs": {
        "path": "m/44'/73405'/0'/0'/0'",
        "publicKey": "91237ad5959a25e025487deebe7bbae444e5ac2dfcd6fd10442d43dd87ef5647",
        "peerId": "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW",
        "peerIdBase36": "k51qzi5uqu5djstea00oprz3rr2zw98micvzyfqqq84ybb2xykdyq3xtq1ffpj"
      },
      "radicle": {
        "path": "m/44'/73404'/0'/0'/0'",
        "publicKey": "1fbc19d1e386f9969c5e7925d71ce5b332b399ee632b17f4743a3248823e248b",
        "did": "did:key:z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn",
        "nodeId": "z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn",
        "sshPublicKey": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB+8GdHjhvmWnF55Jdcc5bMys5nuYysX9HQ6MkiCPiSL",
        "sshFingerprint": "SHA256:40DnrznWnBm9SGsgfPqOurDMkxMKNb3VzZd6P5At2A4"
      }
    }

    """

  static let profileText = """
    Mnemonic
      Language          english
      Words             12

    Wallet
      Path              m/44'/60'/0'/0/0
      Address           0x9858EfFD232B4033E47d90003D41EC34EcaEda94
      Public key        0237b0bb7a8288d38ed49a524b5dc98cff3eb5ca824c9f9dc0dfdb3d9cd600f299

    Swarm
      Path              m/44'/60'/0'/0/1
      Address           0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0
      Public key        039fd0991d0222b4e1339c1a1a5b5f6d9f6a96672a3247b638ee6156d9ea877a2f
      Network ID        1
      Overlay nonce     0000000000000000000000000000000000000000000000000000000000000000
      Overlay           ffc594c6c113aedba5445e3b7405ea7845b605d562288a4491c7777ccd2b0279

    IPFS
      Path              m/44'/73405'/0'/0'/0'
      Public key        91237ad5959a25e025487deebe7bbae444e5ac2dfcd6fd10442d43dd87ef5647
      Peer ID           12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW
      Peer ID (base36)  k51qzi5uqu5djstea00oprz3rr2zw98micvzyfqqq84ybb2xykdyq3xtq1ffpj

    Radicle
      Path              m/44'/73404'/0'/0'/0'
      Public key        1fbc19d1e386f9969c5e7925d71ce5b332b399ee632b17f4743a3248823e248b
      DID               did:key:z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn
      Node ID           z6Mkgb93MjdiDEUrHVCY2X4EfaSwzoFCorViqqPnjoQX8gAn
      SSH public key    ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB+8GdHjhvmWnF55Jdcc5bMys5nuYysX9HQ6MkiCPiSL
      SSH fingerprint   SHA256:40DnrznWnBm9SGsgfPqOurDMkxMKNb3VzZd6P5At2A4

    """

  static let allSecrets = [
    seed, walletPrivateKey, swarmPrivateKey, ipfsPrivateKey, radiclePrivateKey, kuboPrivKey,
  ]

  /// Runs `derive` with the mnemonic in a 0600 file; checks success and a silent stderr.
  func derive(
    _ arguments: [String], mnemonic: String = Self.mnemonic,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words.txt", mnemonic + "\n")
    let run = try CLI.run(["derive", "--mnemonic-file", words] + arguments)
    #expect(run.status == 0, sourceLocation: sourceLocation)
    #expect(run.stderr == "", sourceLocation: sourceLocation)
    return run.stdout
  }

  func object(_ json: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }

  @Test func profileJSON() throws {
    let stdout = try derive(["--json"])
    #expect(stdout == Self.profileJSON)
    let json = try object(stdout)
    #expect(Array(json.keys).sorted() == ["ipfs", "mnemonic", "radicle", "swarm", "wallet"])
    #expect((json["wallet"] as? [String: Any])?["address"] as? String == Self.walletAddress)
  }

  @Test func profileSummary() throws {
    #expect(try derive([]) == Self.profileText)
  }

  @Test(arguments: [["--json"], [], ["--json", "--wallets", "3", "--publishers", "2"]])
  func noSecretWithoutIncludeSecrets(arguments: [String]) throws {
    let stdout = try derive(arguments)
    for secret in Self.allSecrets + ["abandon", "privateKey", "Private key", "seed"] {
      #expect(!stdout.contains(secret), "\(secret)")
    }
  }

  @Test func secretsInJSON() throws {
    let json = try object(try derive(["--json", "--include-secrets"]))
    #expect(json["seed"] as? String == Self.seed)
    let wallet = try #require(json["wallet"] as? [String: Any])
    let swarm = try #require(json["swarm"] as? [String: Any])
    let ipfs = try #require(json["ipfs"] as? [String: Any])
    let radicle = try #require(json["radicle"] as? [String: Any])
    #expect(wallet["privateKey"] as? String == Self.walletPrivateKey)
    #expect(swarm["privateKey"] as? String == Self.swarmPrivateKey)
    #expect(ipfs["privateKey"] as? String == Self.ipfsPrivateKey)
    #expect(ipfs["privKey"] as? String == Self.kuboPrivKey)
    #expect(radicle["privateKey"] as? String == Self.radiclePrivateKey)
  }

  @Test func secretsInSummary() throws {
    let stdout = try derive(["--include-secrets"])
    #expect(stdout.contains("\n  Seed              \(Self.seed)\n"))
    #expect(stdout.contains("\n  Private key       \(Self.swarmPrivateKey)\n"))
    #expect(stdout.contains("\n  kubo PrivKey      \(Self.kuboPrivKey)\n"))
  }

  @Test func walletsAndPublishers() throws {
    let stdout = try derive(["--json", "--wallets", "2", "--publishers", "2", "--include-secrets"])
    let json = try object(stdout)
    let wallets = try #require(json["wallets"] as? [[String: Any]])
    let publishers = try #require(json["publishers"] as? [[String: Any]])
    #expect(wallets.count == 2 && publishers.count == 2)
    #expect(wallets[0]["address"] as? String == Self.walletAddress)
    #expect(wallets[1]["index"] as? Int == 1)
    #expect(wallets[1]["path"] as? String == "m/44'/60'/1'/0/0")
    #expect(wallets[1]["address"] as? String == "0x78839F6054d7ed13918bAe0473BA31b1Ca9D7265")
    #expect(
      wallets[1]["publicKey"] as? String
        == "038ccc8186e5933e845afd096cc6d3f2fdb25fbe4db4864b944619afa8e4e8bd5e")
    #expect(
      wallets[1]["privateKey"] as? String
        == "318470c858f622e48a80120a1fc3c8460d67a7bf31b3273a6d27d4c013f2f8d3")
    #expect(publishers[0]["path"] as? String == "m/44'/73406'/0'/0/0")
    #expect(publishers[0]["address"] as? String == "0xA274614c1D3425568Fd100B30322287c86085220")
    #expect(publishers[1]["address"] as? String == "0xd2e7208e8026bf96945d56CBCae2f509cC6e4748")
    #expect(
      publishers[1]["privateKey"] as? String
        == "5e272147094036eff6973d92a305be21cd0125866c2c1def8cb4cbdf1b836e37")
    // Members keep the documented order.
    #expect(
      stdout.contains(
        """
            {
              "index": 1,
              "path": "m/44'/60'/1'/0/0",
              "address": "0x78839F6054d7ed13918bAe0473BA31b1Ca9D7265",
        """))
  }

  @Test func overlayForAnotherNetworkAndNonce() throws {
    var swarm = try #require(
      try object(try derive(["--json", "--network-id", "10"]))["swarm"] as? [String: Any])
    #expect(swarm["networkId"] as? Int == 10)
    #expect(
      swarm["overlay"] as? String
        == "74256997df50fd70714b8eede092905999d6e61c1d91c86fa6cc230e55613754")
    let nonce = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    swarm = try #require(
      try object(try derive(["--json", "--overlay-nonce", nonce]))["swarm"] as? [String: Any])
    #expect(swarm["overlayNonce"] as? String == nonce)
    #expect(
      swarm["overlay"] as? String
        == "abd78b349057a9045631156345c2e90ced86db9c4f27c9e75821a5dab4f4f149")
  }

  /// What `derive` says wherever it prints an xpub.
  static let xpubWarning =
    "freedom-keys: warning: an xpub with any one child's private key yields every sibling's key "
    + "(the xpub of m/44'/60'/0'/0 with the wallet's key gives the Swarm key at /1)\n"

  /// The key without its xpub unless asked: the xpub with one child's private key (desktop
  /// exports account keys) yields every sibling's.
  @Test func singleSecp256k1Key() throws {
    let stdout = try derive(["--json", "--path", "m/44'/60'/0'/0/0"])
    #expect(
      stdout == """
        {
          "path": "m/44'/60'/0'/0/0",
          "curve": "secp256k1",
          "publicKey": "0237b0bb7a8288d38ed49a524b5dc98cff3eb5ca824c9f9dc0dfdb3d9cd600f299",
          "address": "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
        }

        """)
  }

  /// `--xpub` (or `--include-secrets`) adds it, with the line on what it exposes: this account
  /// xpub (recomputed with a plain-Python BIP-32) and the wallet's private key give the Swarm
  /// key at /1 (k1 = IL(xpub, 1) + (k0 - IL(xpub, 0)) mod n).
  @Test func xpubOnlyWhenAsked() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words.txt", Self.mnemonic + "\n")
    let account = ["derive", "--mnemonic-file", words, "--path", "m/44'/60'/0'/0"]
    let plain = try CLI.run(account)
    #expect(plain.status == 0)
    #expect(!plain.stdout.contains("xpub"))
    #expect(plain.stderr == "")
    let plainJSON = try CLI.run(account + ["--json"])
    #expect(try object(plainJSON.stdout)["xpub"] == nil)
    #expect(plainJSON.stderr == "")

    let asked = try CLI.run(account + ["--xpub", "--json"])
    #expect(asked.status == 0)
    #expect(asked.stderr == Self.xpubWarning)
    let xpub = try #require(try object(asked.stdout)["xpub"] as? String)
    #expect(
      xpub
        == "xpub6EF8jXqFeFEW5bwMU7RpQtHkzE4KJxcqJtvkCjJumzW8CPpacXkb92ek4WzLQXjL93HycJwTPUAcuNxCq"
        + "FPKKU5m5Z2Vq4nCyh5CyPeBFFr")
    let summary = try CLI.run(account + ["--xpub"])
    #expect(summary.stdout.contains("\nxpub        \(xpub)\n"), "\(summary.stdout)")
    #expect(summary.stderr == Self.xpubWarning)
    let secrets = try CLI.run(account + ["--include-secrets", "--json"])
    #expect(try object(secrets.stdout)["xpub"] as? String == xpub)
    #expect(secrets.stderr == Self.xpubWarning)

    let usage = try CLI.run(["derive", "--xpub"])
    #expect(usage.status == 2)
    #expect(
      usage.stderr
        == "freedom-keys: error: --xpub only applies with --path (see 'freedom-keys derive --help')\n"
    )
  }

  @Test func singleKeySummary() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words.txt", Self.mnemonic + "\n")
    let run = try CLI.run([
      "derive", "--mnemonic-file", words, "--path", "m/44'/60'/0'/0/0", "--include-secrets",
    ])
    #expect(run.status == 0)
    #expect(run.stderr == Self.xpubWarning)
    let stdout = run.stdout
    #expect(
      stdout == """
        Path         m/44'/60'/0'/0/0
        Curve        secp256k1
        Public key   0237b0bb7a8288d38ed49a524b5dc98cff3eb5ca824c9f9dc0dfdb3d9cd600f299
        Address      0x9858EfFD232B4033E47d90003D41EC34EcaEda94
        xpub         xpub6H6LG2We64bdwqNF7gNkUJ5EvDibiT2gbs77oonbawV86XE3eMxZf9czGQ9CPdSzsdsHLnLEjiJJEDnFMAyLrWATesaVbTYeggBXMHaFKLg
        Private key  \(Self.walletPrivateKey)

        """)
  }

  @Test func singleEd25519KeyWithSecret() throws {
    let json = try object(
      try derive([
        "--json", "--path", "m/44h/73405h/0h/0h/0h", "--curve", "ed25519", "--include-secrets",
      ]))
    #expect(json["path"] as? String == "m/44'/73405'/0'/0'/0'")
    #expect(json["curve"] as? String == "ed25519")
    #expect(json["peerId"] as? String == "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW")
    #expect(json["privateKey"] as? String == Self.ipfsPrivateKey)
    #expect(json["address"] == nil && json["xpub"] == nil)
  }

  @Test func ed25519NeedsAHardenedPath() throws {
    let run = try CLI.run(["derive", "--path", "m/44'/0", "--curve", "ed25519"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: segment 2 ('0') of m/44'/0 is not hardened: Ed25519 (SLIP-0010) "
        + "supports hardened derivation only — write 0' (see 'freedom-keys derive --help')\n")
  }

  @Test func twentyFourWords() throws {
    let words = Array(repeating: "abandon", count: 23) + ["art"]
    let json = try object(try derive(["--json"], mnemonic: words.joined(separator: " ")))
    #expect((json["mnemonic"] as? [String: Any])?["words"] as? Int == 24)
    #expect(
      (json["swarm"] as? [String: Any])?["address"] as? String
        == "0xf785bD075874b8423D3583728a981399f31e95aA")
    #expect(
      (json["ipfs"] as? [String: Any])?["peerId"] as? String
        == "12D3KooWSSppFRXRiW23YYh5zC8ZqSR2C3UgL2oJqhM5PjsAmxPk")
  }

  @Test func badChecksumIsAFailure() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", Array(repeating: "abandon", count: 12).joined(separator: " "))
    let run = try CLI.run(["derive", "--mnemonic-file", words])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: the checksum of these 12 english words does not match: one or more "
        + "words are wrong or out of order (changing only the last word would fix it; 128 of the "
        + "2048 words are valid as word 12)\n")
  }

  @Test func forcedLanguage() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words", Self.mnemonic)
    let run = try CLI.run(["derive", "--mnemonic-file", words, "--language", "french"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "freedom-keys: error: word 12 ('about') is not in the french wordlist but in the english wordlist\n"
    )
  }

  @Test func abbreviationsAreExpandedWithAWarning() throws {
    let dir = try TemporaryDirectory()
    let words = try dir.file(
      "words", "aban " + Array(repeating: "abandon", count: 10).joined(separator: " ") + " abou")
    let run = try CLI.run(["derive", "--mnemonic-file", words, "--json"])
    #expect(run.status == 0)
    #expect(try object(run.stdout)["mnemonic"] != nil)
    #expect(run.stdout.contains(Self.walletAddress))
    #expect(
      run.stderr
        == "freedom-keys: warning: words 1, 12 are abbreviated; read as the English words they begin\n"
    )
  }
}

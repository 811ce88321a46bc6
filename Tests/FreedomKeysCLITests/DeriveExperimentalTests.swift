import Foundation
import TestSupport
import Testing

/// `derive --experimental`: desktop Freedom's Railgun and Kohaku PPv2 keys, checked against
/// desktop's published credential vectors (Tests/GoldenVectors/Vectors/
/// freedom-desktop-experimental.json, `test` ×11 `junk`, profile "public-fixture-a") and PPv2
/// keys computed with bip-utils.
@Suite("derive --experimental")
struct DeriveExperimentalTests {
  static let mnemonic = "test test test test test test test test test test test junk"
  static let profile = [
    "--railgun-profile", "public-fixture-a", "--railgun-user-data", "/public-fixtures/railgun-a",
  ]
  static let profileID = "30b512cfc869e4671fc5e3ece5189b548ff16968cdf82c913110618846d30938"
  static let spending0 = "b0958f8bc286ae0832fa83b01b719a225a07ce7b861ff311323f221667b3bd50"
  static let viewing0 = "9da4b4f0b5493a6ba3f7df0611c3e0842f7e2bb3d640f313b235f1b75c1d80b9"
  static let root0 = "fd6891cb8560f4f3c9dd18869d4def83098fe8856f119a2c6dac989347848100"
  static let spending65535 = "2facaa8931f4f3805d78b14c0242d9cd2081cd23fec3e9a8336360c3c2ada970"
  static let viewing65535 = "bbecd13562b21672f58cbc0314701ed252460e688b5feaeea1dd825976203abb"
  static let root65535 = "d74b1e831e88235d13bc2083e4cbcae6073a051254b9a209e0a0ec6c3c858aa5"
  static let ppv2Key1 = "9d49aaf9fa92227a5c58ca6f799d348c2a1c1b09e142b00f83efdffa27b23429"
  static let ppv2Address1 = "0xF0Eccd773633e6916961B37a020531DC70179E09"
  static let secrets = [
    spending0, viewing0, root0, spending65535, viewing65535, root65535, ppv2Key1,
  ]

  /// Runs `derive` with the mnemonic in a 0600 file; checks success and a silent stderr.
  func derive(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> String
  {
    let dir = try TemporaryDirectory()
    let words = try dir.file("words.txt", Self.mnemonic + "\n")
    let run = try CLI.run(["derive", "--mnemonic-file", words] + arguments)
    #expect(run.status == 0, sourceLocation: sourceLocation)
    #expect(run.stderr == "", sourceLocation: sourceLocation)
    return run.stdout
  }

  /// The whole `experimental` member of `--json --include-secrets`, byte for byte.
  @Test func jsonWithSecrets() throws {
    let stdout = try derive(
      [
        "--json", "--include-secrets", "--experimental", "--railgun-index", "65535,0",
        "--ppv2-index", "1",
      ] + Self.profile)
    let start = try #require(stdout.range(of: "  \"experimental\": {"))
    #expect(
      String(stdout[start.lowerBound...]) == """
          "experimental": {
            "railgun": {
              "profileId": "\(Self.profileID)",
              "accounts": [
                {
                  "index": 0,
                  "spendingPath": "m/44'/1984'/0'/0'/0'",
                  "viewingPath": "m/420'/1984'/0'/0'/0'",
                  "spendingKey": "\(Self.spending0)",
                  "viewingKey": "\(Self.viewing0)",
                  "storageRoot": "\(Self.root0)"
                },
                {
                  "index": 65535,
                  "spendingPath": "m/44'/1984'/0'/0'/65535'",
                  "viewingPath": "m/420'/1984'/0'/0'/65535'",
                  "spendingKey": "\(Self.spending65535)",
                  "viewingKey": "\(Self.viewing65535)",
                  "storageRoot": "\(Self.root65535)"
                }
              ]
            },
            "ppv2": [
              {
                "index": 1,
                "path": "m/28784'/2'/1'",
                "address": "\(Self.ppv2Address1)",
                "publicKey": "0294cc03f16979152a0d11fd8773818abf068a2fada4da478116e37d7792c77ce4",
                "privateKey": "\(Self.ppv2Key1)"
              }
            ]
          }
        }

        """)
    _ = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
  }

  @Test func summaryWithSecrets() throws {
    let stdout = try derive(
      ["--include-secrets", "--experimental", "--railgun-index", "0"] + Self.profile)
    let start = try #require(stdout.range(of: "Railgun profile\n"))
    #expect(
      String(stdout[start.lowerBound...]) == """
        Railgun profile
          Profile ID        \(Self.profileID)

        Railgun 0
          Spending path     m/44'/1984'/0'/0'/0'
          Viewing path      m/420'/1984'/0'/0'/0'
          Spending key      \(Self.spending0)
          Viewing key       \(Self.viewing0)
          Storage root      \(Self.root0)

        PPv2 0
          Path              m/28784'/2'/0'
          Address           0xf3De182259ACc7227E79e66dC9D0CcD8a2695FF7
          Public key        037a03fa2635353d13def0991fd81057fc6786b0c6e07d5814ce63374cda5648d6
          Private key       65b74a8245fb07411bd7945fb1ff383a95ce52e8cb3439c8076e433fe3982de7

        """)
  }

  /// Without --include-secrets only paths, the profile hash and PPv2's public parts appear.
  @Test(arguments: [["--json"], []])
  func noSecretWithoutIncludeSecrets(format: [String]) throws {
    let stdout = try derive(
      format + ["--experimental", "--railgun-index", "0,65535", "--ppv2-index", "0-1"]
        + Self.profile)
    for secret in Self.secrets + [
      "65b74a8245fb07411bd7945fb1ff383a95ce52e8cb3439c8076e433fe3982de7"
    ] {
      #expect(!stdout.contains(secret), "\(secret)")
    }
    for name in ["spendingKey", "Spending key", "storageRoot", "Storage root", "privateKey"] {
      #expect(!stdout.contains(name), "\(name)")
    }
    #expect(stdout.contains("m/420'/1984'/0'/0'/65535'"))
    #expect(stdout.contains(Self.ppv2Address1))
    #expect(stdout.contains(Self.profileID))
  }

  /// Without --experimental nothing experimental is printed (the profile output is unchanged).
  @Test func absentWithoutTheFlag() throws {
    let stdout = try derive(["--json", "--include-secrets"])
    #expect(!stdout.contains("experimental"))
    #expect(!stdout.contains("1984"))
  }

  @Test(arguments: [
    (["--railgun-index", "0"], "--railgun-index only applies with --experimental"),
    (["--ppv2-index", "0"], "--ppv2-index only applies with --experimental"),
    (["--railgun-profile", "a"], "--railgun-profile only applies with --experimental"),
    (
      ["--experimental", "--railgun-profile", "a"],
      "--railgun-profile and --railgun-user-data must be given together"
    ),
    (
      ["--experimental", "--railgun-user-data", "/x"],
      "--railgun-profile and --railgun-user-data must be given together"
    ),
    (
      ["--experimental", "--railgun-profile", "", "--railgun-user-data", "/x"],
      "--railgun-profile <id> is empty"
    ),
    (
      ["--experimental", "--railgun-profile", "a", "--railgun-user-data", ""],
      "--railgun-user-data <dir> is empty"
    ),
    (["--experimental", "--path", "m/0"], "--experimental cannot be combined with --path"),
    (
      ["--experimental", "--ppv2-index", "0-1000"],
      "--ppv2-index <list> may name at most 1000 accounts"
    ),
    (
      ["--experimental", "--railgun-index", "0-999,1000"],
      "--railgun-index <list> may name at most 1000 accounts"
    ),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = try CLI.run(["derive"] + arguments)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "freedom-keys: error: \(message) (see 'freedom-keys derive --help')\n")
  }

  /// A bad list is refused before the mnemonic is asked for, and the message does not repeat it.
  @Test(arguments: ["65536", "1-0", "", ",", "0,", "-1", "1--2", "0x1", " 1", "1 ", "+1", "123456"])
  func badIndexList(list: String) throws {
    let run = try CLI.run(["derive", "--experimental", "--railgun-index", list])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr == "freedom-keys: error: --railgun-index <list> must list indexes 0 to 65535, "
        + "separated by commas, or ranges such as 0-9 (see 'freedom-keys derive --help')\n")
  }

  /// Overlapping ranges count once: 0-999 twice is 1000 accounts, not 2000.
  @Test func overlappingRangesCountOnce() throws {
    let stdout = try derive(["--experimental", "--railgun-index", "0-999,0-999,5"])
    #expect(stdout.components(separatedBy: "\n").filter { $0.hasPrefix("Railgun ") }.count == 1000)
  }

  @Test func indexesAreSortedAndListedOnce() throws {
    let stdout = try derive([
      "--experimental", "--railgun-index", "3,1-2,2", "--ppv2-index", "0-999",
    ])
    let railgun = stdout.components(separatedBy: "\n").filter { $0.hasPrefix("Railgun ") }
    #expect(railgun == ["Railgun 1", "Railgun 2", "Railgun 3"])
    #expect(stdout.components(separatedBy: "\n").filter { $0.hasPrefix("PPv2 ") }.count == 1000)
  }
}

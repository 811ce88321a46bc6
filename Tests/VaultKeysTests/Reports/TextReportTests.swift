import Testing

@testable import VaultKeys

@Suite struct TextReportTests {
  @Test func valuesOfAllSectionsStartInOneColumn() {
    var report = TextReport()
    report.section("Wallet")
    report.row("Path", "m/44'/60'/0'/0/0")
    report.section("Swarm")
    report.row("Overlay nonce", "00")
    #expect(
      report.rendered
        == "Wallet\n  Path           m/44'/60'/0'/0/0\n\nSwarm\n  Overlay nonce  00\n")
  }

  @Test func anUntitledSectionStartsAtTheMargin() {
    var report = TextReport()
    report.row("Address", "0xab")
    report.row("", "the same")
    #expect(report.rendered == "Address  0xab\n         the same\n")
  }

  @Test func anEmptyReportIsEmpty() {
    #expect(TextReport().rendered == "")
  }

  @Test func rowsOfAnObjectUseTheLabelsAndPlainText() {
    var report = TextReport()
    report.section("")
    let object: JSONObject = [
      "publicKey": .string("02ab"), "words": .number(24), "matches": .bool(true),
    ]
    report.rows(object, labels: ["publicKey": "Public key"])
    #expect(report.rendered == "Public key  02ab\nwords       24\nmatches     true\n")
  }

  @Test func aTableIsOneTitledSection() {
    #expect(
      TextReport.table("Plan", [("create", "/a/key"), ("keep", "/a/config.yaml")])
        == "Plan\n  create  /a/key\n  keep    /a/config.yaml\n")
  }

  @Test func theAbbreviationNoteCountsItsWords() {
    #expect(
      Mnemonic.abbreviationNote([3]) == "word 3 is abbreviated; read as the English word it begins")
    #expect(
      Mnemonic.abbreviationNote([1, 12])
        == "words 1, 12 are abbreviated; read as the English words they begin")
  }

  @Test func plainTextQuotesNoString() {
    #expect(JSONValue.string("a \"b\"").plainText == "a \"b\"")
    #expect(JSONValue.number(7).plainText == "7")
    #expect(JSONValue.array([.string("x")]).plainText == "[\n  \"x\"\n]")
  }
}

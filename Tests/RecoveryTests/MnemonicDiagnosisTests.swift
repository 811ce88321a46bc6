import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// What is wrong with a phrase, and the search that repairs it.
@Suite struct MnemonicDiagnosisTests {
  static let truth = "legal winner thank year wave sausage worth useful legal winner thank yellow"

  static func diagnose(_ phrase: String, _ language: Wordlist.Language? = nil)
    -> MnemonicDiagnosis
  {
    MnemonicDiagnosis(phrase: SecureBytes(utf8: phrase), language: language)
  }

  static func replacing(_ position: Int, with word: String) -> String {
    var words = truth.split(separator: " ").map(String.init)
    words[position - 1] = word
    return words.joined(separator: " ")
  }

  @Test func aValidPhraseHasNoErrorAndNoRepair() {
    let diagnosis = Self.diagnose(Self.truth)
    #expect(diagnosis.error == nil && diagnosis.repair == nil)
    #expect(diagnosis.language == .english && diagnosis.wordCount == 12)
    #expect(diagnosis.expandedAbbreviations.isEmpty)
    #expect(
      JSONValue.object(diagnosis.json(error: nil)).compact
        == "{\"valid\":true,\"language\":\"english\",\"words\":12,\"expandedAbbreviations\":[]}")
  }

  @Test func abbreviationsAreExpanded() {
    let diagnosis = Self.diagnose(Self.replacing(2, with: "winn"))
    #expect(diagnosis.error == nil)
    #expect(diagnosis.expandedAbbreviations == [2])
  }

  @Test func aMisspeltWordIsSearchedAsItIs() {
    let diagnosis = Self.diagnose(Self.replacing(12, with: "yelow"))
    guard case .unknownWord = diagnosis.error else {
      Issue.record("\(String(describing: diagnosis.error))")
      return
    }
    #expect(
      diagnosis.repair
        == .init(missingWords: 0, typos: 0, allowsSwap: false, unplaceable: [], automatic: true))
    #expect(diagnosis.repair?.unplaceableWords == nil)
    #expect(diagnosis.damagedSyntaxPosition == nil)
  }

  @Test func aWordNoWordIsNearIsToBeWrittenAsUnknown() {
    let diagnosis = Self.diagnose(Self.replacing(12, with: "qqqqqq"))
    #expect(diagnosis.repair?.unplaceable == [12])
    #expect(diagnosis.repair?.unplaceableWords == "word 12")
    let three = MnemonicDiagnosis.Repair(
      missingWords: 0, typos: 0, allowsSwap: false, unplaceable: [2, 5, 9], automatic: true)
    #expect(three.unplaceableWords == "words 2, 5 and 9")
  }

  @Test func aChecksumMismatchIsSearchedWithOneTypoAndSwaps() {
    let diagnosis = Self.diagnose(Self.replacing(5, with: "wine"))
    guard case .checksumMismatch = diagnosis.error else {
      Issue.record("\(String(describing: diagnosis.error))")
      return
    }
    #expect(
      diagnosis.repair
        == .init(missingWords: 0, typos: 1, allowsSwap: true, unplaceable: [], automatic: true))
  }

  /// Two close wrong words are a checksum mismatch too, which one typo and a swap cannot reach;
  /// the automatic phases can ("two close words"), so they are the search offered.
  @Test func aChecksumMismatchIsLeftToTheAutomaticPhases() throws {
    var words = Self.truth.split(separator: " ").map(String.init)
    words[4] = "wage"  // wave
    words[6] = "north"  // worth
    let damaged = words.joined(separator: " ")
    let diagnosis = Self.diagnose(damaged)
    guard case .checksumMismatch = diagnosis.error else {
      Issue.record("\(String(describing: diagnosis.error))")
      return
    }
    #expect(diagnosis.repair?.automatic == true)
    // The fixed model's search holds no candidate with both words put right.
    let phrase = try DamagedPhrase(phrase: SecureBytes(utf8: damaged), language: .english)
    let fixed = try RecoverySearch(phrase: phrase, missingWords: 0, allowsSwap: true, typos: 1)
    let twoClose = RecoveryPhase(
      extraWords: 0, missingWords: 0, swap: false, typos: 2, wrongWords: .close)
    #expect(RecoveryPhase.plan(for: phrase).map(\.phase).contains(twoClose))
    #expect(fixed.candidateCount > 0)
  }

  @Test func missingWords() {
    let words = Self.truth.split(separator: " ")
    let eleven = Self.diagnose(words.dropLast().joined(separator: " "))
    #expect(eleven.error == .invalidWordCount(11))
    #expect(eleven.wordCount == 11)
    #expect(eleven.repair?.missingWords == 1)
    #expect(eleven.repair?.automatic == true)
    let ten = Self.diagnose(words.dropLast(2).joined(separator: " ")).repair
    #expect(ten?.missingWords == 2)
    // No phase leaves out two words: the fixed model is the search.
    #expect(ten?.automatic == false)
    // Three words short, or one too many, is no damage a search is offered for.
    #expect(Self.diagnose(words.dropLast(3).joined(separator: " ")).repair == nil)
    #expect(Self.diagnose(Self.truth + " yellow").repair == nil)
    #expect(MnemonicDiagnosis.missingWords(16) == nil)
    #expect(MnemonicDiagnosis.missingWords(14) == 1)
    #expect(MnemonicDiagnosis.missingWords(13) == nil)
    #expect(MnemonicDiagnosis.missingWords(22) == 2)
  }

  @Test func theDamagedPhraseSyntaxIsNamedAndSearched() {
    let unknown = Self.diagnose(Self.replacing(11, with: "?"))
    #expect(unknown.damagedSyntaxPosition == 11)
    #expect(unknown.repair?.missingWords == 0)
    let prefix = Self.diagnose(Self.replacing(3, with: "th*"))
    #expect(prefix.damagedSyntaxPosition == 3)
    #expect(prefix.repair != nil)
    // A stray character that is no damage syntax is only the parser's error.
    let stray = Self.diagnose(Self.replacing(3, with: "th#nk"))
    #expect(stray.damagedSyntaxPosition == nil)
    #expect(stray.repair == nil)
  }

  @Test func theErrorIsWordedByTheCallerInJSON() {
    // A word count names no wordlist: the language is left out unless the caller gives one.
    #expect(
      JSONValue.object(Self.diagnose("legal winner thank").json(error: "too short")).compact
        == "{\"valid\":false,\"words\":3,\"expandedAbbreviations\":[],\"error\":\"too short\"}")
    #expect(
      JSONValue.object(Self.diagnose("legal winner thank", .english).json(error: nil)).compact
        == "{\"valid\":false,\"language\":\"english\",\"words\":3,\"expandedAbbreviations\":[]}")
  }
}

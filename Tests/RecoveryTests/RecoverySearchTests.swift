import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// The parts of a search, enumerated in full (not only the checksum-valid candidates): every
/// candidate is kept in exactly one part.
@Suite("recover: search parts")
struct RecoverySearchTests {
  @Test func overlappingPartsKeepEachCandidateOnce() throws {
    let phrase = SecureBytes(utf8: RecoveryFixture.letterAdvice)
    let search = try RecoverySearch(
      phrase: DamagedPhrase(phrase: phrase), allowsSwap: true, typos: 1)
    #expect(search.parts.contains { !$0.earlierOverlaps.isEmpty })
    var distinct = Set<[UInt16]>()
    var kept = 0
    var enumerated: UInt64 = 0
    var indices = [UInt16](repeating: 0, count: search.wordCount)
    for (number, part) in search.parts.enumerated() {
      // Odometer over the part's sets.
      var digits = [Int](repeating: 0, count: part.sets.count)
      repeat {
        for position in digits.indices {
          indices[position] = part.sets[position].indices[digits[position]]
        }
        enumerated += 1
        distinct.insert(indices)
        let held = indices.withUnsafeMutableBufferPointer {
          search.heldInEarlierPart(than: number, $0.baseAddress!)
        }
        if !held { kept += 1 }
        var position = digits.count - 1
        while position >= 0 {
          digits[position] += 1
          if digits[position] < part.sets[position].count { break }
          digits[position] = 0
          position -= 1
        }
        if position < 0 { break }
      } while true
    }
    #expect(enumerated == search.candidateCount)
    #expect(kept == distinct.count)
    #expect(kept < Int(enumerated))
  }
}

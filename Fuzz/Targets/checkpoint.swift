import CryptoPrimitives
import VaultKeys

@testable import Recovery

/// A small search the checkpoints are checked against: word 3 of the "legal winner" BIP-39
/// vector written as "th*" (15 candidates, one chunk), its Swarm wallet as the target.
let recovery: PhraseRecovery = {
  let phrase = SecureBytes(
    utf8: "legal winner th* year wave sausage worth useful legal winner thank yellow")
  let address = try! EthereumAddress("0x0d3eb21b6b21833a4939cfff4810e9ae0758e12c")
  return try! PhraseRecovery(
    search: RecoverySearch(phrase: DamagedPhrase(phrase: phrase)),
    targets: [.address(address, accounts: 3)], configuration: .init(threads: 1))
}()

/// The recover checkpoint reader: never crashes; a checkpoint it reads is written back by
/// `jsonBytes()` to one that reads back equal; with the search's own hash put in, checking it
/// against the search never crashes, and one that passes holds only chunks and counts the
/// search has, and a match that derives again to a phrase matching the target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let progress = try? RecoveryProgress(json: bytes(data, size)) else { return 0 }
  let written = progress.jsonBytes()
  require((try? RecoveryProgress(json: written)) == progress, "does not read back equal")

  // Give it this search's hash, so that the checks past the hash are reached.
  let hash = Array(Hex.encode(progress.searchHash).utf8)
  guard
    let start = (0...(written.count - hash.count)).first(where: {
      written[$0..<($0 + hash.count)].elementsEqual(hash)
    })
  else {
    require(false, "the written checkpoint does not hold its hash")
    return 0
  }
  var own = written
  own.replaceSubrange(start..<(start + hash.count), with: Hex.encode(recovery.searchHash).utf8)
  guard let claimed = try? RecoveryProgress(json: own) else {
    require(false, "the same checkpoint with another hash does not read")
    return 0
  }
  guard (try? recovery.validate(claimed)) != nil else { return 0 }
  require(claimed.doneBelow <= recovery.chunkCount, "doneBelow past the chunks")
  require(claimed.doneChunks.allSatisfy { $0 > claimed.doneBelow }, "a done chunk below")
  require(claimed.doneChunks.allSatisfy { $0 < recovery.chunkCount }, "a done chunk past")
  require(claimed.candidates <= UInt64(recovery.range.count), "more candidates than the search")
  if let match = claimed.match {
    // The one checksum-valid candidate of this search is the vector itself, which matches.
    let found = try? recovery.rederive(match)
    require(found?.matched == "swarm.address", "a valid match that does not derive")
  }
  return 0
}

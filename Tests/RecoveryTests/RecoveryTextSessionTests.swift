import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// How a phrase search's and a password search's events and ends read, naming no tool and no
/// option.
@Suite("recover: the searches in words")
struct RecoveryTextSessionTests {
  typealias S = RecoverySessionTests
  typealias P = PasswordRecoveryTests

  @Test func phraseEvents() throws {
    let session = try S.session([12: "?"])
    let phase = try #require(session.phases.first)
    #expect(phase.kind?.description == "the phrase as written")
    func line(_ event: RecoverySession.Event) -> String {
      RecoveryText.line(event, phases: 5, checkpoint: "cp.json")
    }
    #expect(line(.phaseStarted(phase)) == "phase 1 of 5: the phrase as written")
    #expect(
      line(.resuming(phase: 3, of: 5))
        == "resuming at phase 3 of 5: cp.json shows the phases before it searched to their end")
    #expect(
      line(.foundEarlier)
        == "found earlier: cp.json records this search's match, derived again from the phrase "
        + "and checked against the targets; nothing was searched")
    #expect(
      line(.phaseExhausted(phase))
        == "phase 1 of 5 (the phrase as written): no match in "
        + "\(RecoveryText.grouped(UInt64(phase.recovery.range.count))) candidates")
    #expect(
      line(.lastPhaseNext)
        == "the likelier phases found nothing; if the phrase is nearly right, the targets may be "
        + "what differs")
  }

  @Test func aPhraseSearchThatFoundNothing() throws {
    let target = try ShardCollectionTests.nothing()
    let whole = try S.session([12: "?"], damage: RecoveryDamage(), targets: [target])
    let result = try whole.run()
    guard case .exhausted = result.ending else {
      Issue.record("not exhausted: \(result.ending)")
      return
    }
    #expect(
      RecoveryText.exhausted(result, automatic: false, phases: 1)
        == "no candidate matched the targets: all 2,048 candidates (128 checksum-valid) were "
        + "searched")
    #expect(
      RecoveryText.exhausted(result, automatic: true, phases: 4)
        == "no candidate matched the targets: all 4 phases searched, the last of all 2,048 "
        + "candidates (128 checksum-valid) were searched")
    #expect(RecoveryText.searched(result, phases: 1) == "100.0% (2,048 of 2,048 candidates)")

    let part = try S.session(
      [12: "?"], damage: RecoveryDamage(), targets: [target], shard: (2, 4), sharded: true)
    let partResult = try part.run()
    let valid = RecoveryText.grouped(partResult.progress?.checksumValid ?? 0)
    #expect(
      RecoveryText.exhausted(partResult, automatic: false, phases: 1)
        == "no candidate of shard 2/4 matched the targets: all 512 candidates (\(valid) "
        + "checksum-valid) were searched")
  }

  @Test func aCountWithoutTargets() throws {
    #expect(
      RecoveryText.counted(candidates: 1, checksumValid: 1) == "1 candidate, 1 passes the checksum")
    #expect(
      RecoveryText.counted(candidates: 4096, checksumValid: 256)
        == "4,096 candidates, 256 pass the checksum")
    let session = try S.session([12: "?"], damage: RecoveryDamage(), targets: [])
    let result = try session.run(collect: 200)
    let json = RecoveryText.countedJSON(candidates: 2048, progress: result.progress, written: true)
    let seconds = JSONValue.tenths(result.progress?.seconds ?? -1)
    let expected: JSONObject = [
      "candidates": .number(2048), "checksumValid": .number(128), "written": .number(128),
      "seconds": seconds,
    ]
    #expect(json == .object(expected))
    let unwritten = RecoveryText.countedJSON(candidates: 2048, progress: nil, written: false)
    let none: JSONObject = [
      "candidates": .number(2048), "checksumValid": .number(0), "seconds": .tenths(0),
    ]
    #expect(unwritten == .object(none))
  }

  // MARK: - Passwords

  static func passwordSession(part: (Int, Int)? = nil) throws -> PasswordSession {
    let set = try PasswordSet(remembered: nil, candidates: P.secret("a\nb\ntestpassword\n"))
    return try PasswordSession(
      PasswordSearch(target: PasswordPartTests.keystore, passwords: set, threads: 2),
      automatic: false, part: part?.0 ?? 1, of: part?.1 ?? 1, sharded: part != nil)
  }

  @Test func aPasswordSearchAnnouncedAndEnded() throws {
    let session = try Self.passwordSession()
    let lines = RecoveryText.announcement(session, file: "k.json").split(separator: "\n")
    #expect(lines.count == 2 && lines[0].hasPrefix("engine: "))
    #expect(
      String(lines[1])
        == "searching 3 passwords against k.json (PBKDF2-HMAC-SHA256, 1000 iterations) on 2 "
        + "threads")
    #expect(
      RecoveryText.exhausted(session, file: "k.json")
        == "no password opened k.json: all 3 candidates tried")
    let part = try Self.passwordSession(part: (2, 3))
    #expect(
      RecoveryText.announcement(part, file: "k.json").contains(
        "searching 1 of 3 passwords (shard 2/3) against k.json"))
    #expect(
      RecoveryText.exhausted(part, file: "k.json")
        == "no password of shard 2/3 opened k.json: all 1 of its passwords tried")

    let result = try session.run()
    #expect(RecoveryText.tried(result, of: session) == "3 of 3 passwords tried")
    let json = try #require(RecoveryText.json(result, of: session, file: "k.json"))
    let address = try EthereumAddress("0x" + P.keystoreAddress)
    var expected: JSONObject = [
      "found": .bool(true), "file": .string("k.json"), "opened": .string("keystore"),
      "address": .string(address.checksummed),
      "password": .object(["origin": .string("candidates"), "line": .number(3)]),
      "candidates": .number(3), "searched": .number(3),
    ]
    expected.append("seconds", .tenths(result.outcome.progress.seconds))
    #expect(json == expected)
  }

  @Test func passwordEvents() throws {
    let set = try PasswordSet(automatic: P.secret("ab1"))
    let session = try PasswordSession(
      PasswordSearch(target: PasswordPartTests.keystore, passwords: set, threads: 1),
      automatic: true)
    #expect(session.phases.count == 4)
    let first = try #require(session.phases.first)
    func line(_ event: PasswordSession.Event) -> String {
      RecoveryText.line(event, phases: session.phases.count, checkpoint: "cp.json")
    }
    #expect(line(.phaseStarted(first)) == "phase 1 of 4: the password as remembered (1 password)")
    #expect(
      line(.phaseExhausted(session.phases[1]))
        == "phase 2 of 4 (one likely typo): no match in "
        + RecoveryText.count(session.phases[1].share.count, "password"))
    #expect(
      line(.resuming(tried: 1500)) == "resuming from cp.json: the first 1,500 passwords were tried")
    #expect(
      line(.foundEarlier)
        == "found earlier: cp.json records which password opened the file; it was opened again, "
        + "nothing was searched")
    let progress = PasswordSearch.Progress(searched: 50, seconds: 10, doneBelow: 50)
    #expect(line(.progress(progress, of: 200)) == "25.0% (50 of 200 passwords) · 5.0/s · ETA 30 s")
  }
}

/// What the files of a phrase found hold.
@Suite("recover: the files of a phrase found")
struct RecoveredPhraseFilesTests {
  @Test func aPhraseALine() throws {
    let session = try RecoverySessionTests.session([12: "?"], damage: RecoveryDamage(), targets: [])
    let result = try session.run(collect: 200)
    guard case .counted(let found?) = result.ending, found.count == 128 else {
      Issue.record("not 128 phrases counted")
      return
    }
    let text = RecoveredPhrase.lines(Array(found.prefix(2))).withUnsafeBytes {
      String(decoding: $0, as: UTF8.self)
    }
    let first = found[0].mnemonic.phrase().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    let second = found[1].mnemonic.phrase().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    #expect(text == first + "\n" + second + "\n")
    #expect(found[0].phraseLine.count == found[0].mnemonic.phrase().count + 1)
    // The passphrase given is the user's: no file of it.
    #expect(found[0].passphraseLine == nil)
  }
}

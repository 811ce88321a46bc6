import Foundation
import Testing

/// `recover --path` with Ed25519 targets (the target says the curve), and the first line, which
/// names the seed engine and what each candidate costs.
@Suite("recover --path and the engine line")
struct RecoverPathTests {
  typealias R = RecoverTests

  func recover(_ options: [String], environment: [String: String] = [:]) throws -> CLIRun {
    let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    return try CLI.run(
      ["recover", "--mnemonic-file", "-", "--threads", "2"] + options, stdin: R.damaged,
      environment: merged)
  }

  @Test func aPeerIDOrDIDIsFoundAtAHardenedPath() throws {
    let identities = try R.identities(R.truth)
    let peerID = R.field(identities, "ipfs", "peerId")
    let run = try recover(["--peer-id", peerID, "--path", "m/44'/73405'/{0-4}'/0'/0'"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        word 3 is 'thank' (was 'th*')
        matched m/44'/73405'/0'/0'/0'
        give --out FILE to write the whole corrected phrase to a new file

        """)
    let did = R.field(identities, "radicle", "did")
    let radicle = try recover(["--did", did, "--path", "m/44'/73404'/{0-2}'/0'/0'"])
    #expect(radicle.status == 0, "\(radicle.stderr)")
    #expect(radicle.stdout.contains("matched m/44'/73404'/0'/0'/0'\n"))
    // A key of the template other than its first, as `derive --path --curve ed25519` gives it.
    let derived = try CLI.run(
      [
        "derive", "--json", "--path", "m/44'/73405'/3'/0'/0'", "--curve", "ed25519",
        "--mnemonic-file", "-",
      ], stdin: R.truth)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(derived.stdout.utf8)) as? [String: Any])
    let third = try #require(object["peerId"] as? String)
    let found = try recover(["--peer-id", third, "--path", "m/44'/73405'/{0-4}'/0'/0'"])
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("matched m/44'/73405'/3'/0'/0'\n"))
    // The IPFS key is not at Radicle's paths.
    // (--typos 0: the phrase as written only, not the automatic phases' larger searches.)
    let elsewhere = try recover([
      "--peer-id", peerID, "--path", "m/44'/73404'/{0-2}'/0'/0'", "--typos", "0",
    ])
    #expect(elsewhere.status == 4)
    #expect(elsewhere.stdout.isEmpty)
  }

  @Test func aNonHardenedEd25519PathIsRefusedBeforeTheSearch() throws {
    let identities = try R.identities(R.truth)
    for (option, value) in [
      ("--peer-id", R.field(identities, "ipfs", "peerId")),
      ("--did", R.field(identities, "radicle", "did")),
    ] {
      let run = try recover([option, value, "--path", "m/44'/73405'/0'/0/{0-4}"])
      #expect(run.status == 2)
      #expect(run.stdout.isEmpty)
      #expect(
        run.stderr.hasPrefix(
          "freedom-keys: error: --path: a PeerID or DID key (Ed25519, SLIP-0010) is derived "
            + "through hardened steps only, and step 4 is not"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }
  }

  @Test func pathTakesExactlyOneTarget() throws {
    let identities = try R.identities(R.truth)
    let run = try recover([
      "--address", R.field(identities, "swarm", "address"), "--peer-id",
      R.field(identities, "ipfs", "peerId"), "--path", "m/44'/60'/0'/0/{0-4}",
    ])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr.hasPrefix(
        "freedom-keys: error: --path <template> applies to one target: give it with one of "
          + "--address, --peer-id or --did"))
    let none = try recover(["--path", "m/44'/60'/0'/0/{0-4}"])
    #expect(none.status == 2)
    #expect(none.stderr.contains("--path <template> applies to one target"))
  }

  @Test func theFirstLineNamesTheEngineAndTheWorkPerCandidate() throws {
    let identities = try R.identities(R.truth)
    let swarm = R.field(identities, "swarm", "address")
    let single = try recover(
      ["--address", swarm], environment: ["FREEDOM_KEYS_MULTIBUFFER": "off"])
    #expect(single.status == 0)
    let first = single.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("engine: single-stream ("), "\(first)")
    #expect(
      first.hasSuffix(
        "; per candidate 20 secp256k1 public keys (the fewest these targets need: 20), "
          + "24 HMAC-SHA512, 0 Ed25519 keys"), "\(first)")

    let peer = try recover(
      ["--peer-id", R.field(identities, "ipfs", "peerId")],
      environment: ["FREEDOM_KEYS_MULTIBUFFER": "off"])
    #expect(
      peer.stderr.split(separator: "\n").first?.hasSuffix(
        "; per candidate 0 secp256k1 public keys (the fewest these targets need: 0), "
          + "6 HMAC-SHA512, 1 Ed25519 keys") == true, "\(peer.stderr)")

    // The default names the fastest engine here; AVX2 can be forced where AVX-512 is the default.
    let fastest = try recover(["--address", swarm])
    let line = fastest.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      [
        "engine: SIMD lanes AVX-512;", "engine: SIMD lanes AVX2;",
        "engine: multi-buffer AVX-512 (libIPSec_MB ", "engine: multi-buffer AVX2 (libIPSec_MB ",
        "engine: single-stream (",
      ].contains { line.hasPrefix($0) }, "\(line)")
    if line.hasPrefix("engine: SIMD lanes AVX-512") {
      let avx2 = try recover(
        ["--address", swarm], environment: ["FREEDOM_KEYS_MULTIBUFFER": "avx2"])
      #expect(avx2.stderr.hasPrefix("engine: SIMD lanes AVX2;"), "\(avx2.stderr)")
      #expect(avx2.status == 0)
      let ipsec = try recover(
        ["--address", swarm], environment: ["FREEDOM_KEYS_MULTIBUFFER": "ipsec-avx2"])
      #expect(
        ipsec.stderr.hasPrefix("engine: multi-buffer AVX2 (libIPSec_MB "), "\(ipsec.stderr)")
      #expect(ipsec.status == 0)
    }
  }
}

import CryptoPrimitives
import Recovery
import Testing
import VaultKeys

/// The matcher on the seed of the published BIP-39 phrase abandon … about: every identity kind
/// is found with its label, and the work it does per seed is the fewest its identities need.
@Suite("recover: the target matcher")
struct TargetMatcherTests {
  static let phrase =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
  static let profile = try! FreedomProfile(mnemonic: Mnemonic(phrase: SecureBytes(utf8: phrase)))
  /// A profile that is not abandon … about's: its identities match nothing of it.
  static let other = try! FreedomProfile(seed: SecureBytes([UInt8](repeating: 7, count: 64)))

  static func path(_ text: String) -> DerivationPath { try! DerivationPath(text) }

  static func label(_ targets: [RecoveryTarget]) -> String? {
    TargetMatcher(targets: targets).match(seed: profile.seed)
  }

  @Test func everyIdentityKindIsFoundWithItsLabel() throws {
    let profile = Self.profile
    // The published address of m/44'/60'/0'/0/0 of abandon … about.
    #expect(profile.wallet.address.checksummed == "0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
    #expect(Self.label([.address(profile.wallet.address)]) == "wallet.address")
    #expect(Self.label([.address(profile.swarm.address)]) == "swarm.address")
    // Freedom's numbering, m/44'/60'/i'/0/0, and MetaMask's, m/44'/60'/0'/0/i.
    #expect(Self.label([.address(try profile.wallet(index: 2).address)]) == "wallets[2].address")
    let metamask2 = try profile.account(at: Self.path("m/44'/60'/0'/0/2")).address
    #expect(Self.label([.address(metamask2)]) == "metamask[2].address")
    #expect(
      Self.label([.address(try profile.publisher(index: 1).address)]) == "publishers[1].address")
    #expect(Self.label([.peerID(profile.ipfs.peerID)]) == "ipfs.peerId")
    #expect(Self.label([.radicle(profile.radicle.radicle)]) == "radicle.did")
    let overlay = try profile.swarmOverlay(networkID: 10)
    #expect(Self.label([.overlay(overlay.rawRepresentation, networkID: 10)]) == "swarm.overlay")

    let paths = try DerivationPathTemplate("m/44'/60'/0'/0/{0-19}").paths
    let seventh = try profile.account(at: Self.path("m/44'/60'/0'/0/7")).address
    #expect(Self.label([.address(seventh, paths: paths)]) == "m/44'/60'/0'/0/7")

    let ed25519Paths = try DerivationPathTemplate("m/44'/73405'/{0-4}'/0'/0'").paths
    let third = try profile.ed25519Identity(at: Self.path("m/44'/73405'/3'/0'/0'"))
    #expect(
      Self.label([try .peerID(third.peerID, paths: ed25519Paths)]) == "m/44'/73405'/3'/0'/0'")
    #expect(
      Self.label([try .radicle(third.radicle, paths: ed25519Paths)]) == "m/44'/73405'/3'/0'/0'")
    // The default IPFS path through a template gives the same key.
    #expect(
      Self.label([try .peerID(profile.ipfs.peerID, paths: ed25519Paths)])
        == "m/44'/73405'/0'/0'/0'")
  }

  @Test func nothingElseMatches() throws {
    let other = Self.other
    #expect(Self.label([.address(other.swarm.address), .peerID(other.ipfs.peerID)]) == nil)
    // A key at a path outside the template, or of the other curve, is not found.
    let seventh = try Self.profile.account(at: Self.path("m/44'/60'/0'/0/7")).address
    let paths = try DerivationPathTemplate("m/44'/60'/0'/0/{0-6}").paths
    #expect(Self.label([.address(seventh, paths: paths)]) == nil)
    let ed25519Paths = try DerivationPathTemplate("m/44'/73405'/{1-4}'/0'/0'").paths
    #expect(Self.label([try .peerID(Self.profile.ipfs.peerID, paths: ed25519Paths)]) == nil)
    // The label says which target matched when there are several.
    #expect(
      Self.label([.address(other.swarm.address), .radicle(Self.profile.radicle.radicle)])
        == "radicle.did")
  }

  @Test func ed25519PathsMustBeHardened() throws {
    let paths = try DerivationPathTemplate("m/44'/73405'/0'/0/{0-1}").paths
    #expect(throws: KeyDerivationError.nonHardenedEd25519(position: 4, path: paths[0])) {
      try RecoveryTarget.peerID(Self.profile.ipfs.peerID, paths: paths)
    }
    #expect(throws: KeyDerivationError.self) {
      try RecoveryTarget.radicle(Self.profile.radicle.radicle, paths: paths)
    }
  }

  /// The work per seed that matches nothing, pinned to the fewest by hand: every node of the
  /// paths' prefix tree is one HMAC-SHA512 (the masters included), and a secp256k1 public key
  /// is needed exactly by a node with a non-hardened child or an address.
  static let minimal: [(name: String, targets: [RecoveryTarget], fewest: TargetMatcher.Stats)] = {
    let other = Self.other
    let address = other.swarm.address
    let template = try! DerivationPathTemplate("m/44'/60'/0'/0/{0-19}").paths
    let ed25519Template = try! DerivationPathTemplate("m/44'/73405'/{0-4}'/0'/0'").paths
    return [
      // m, 44', 73405', 0', 0', 0': six HMACs and one Ed25519 key pair.
      ("peer id", [.peerID(other.ipfs.peerID)], .init(seeds: 1, hmacs: 6, ed25519Keys: 1)),
      ("did", [.radicle(other.radicle.radicle)], .init(seeds: 1, hmacs: 6, ed25519Keys: 1)),
      // m/44'/60'/0' and m/44'/60'/0'/0 for the non-hardened steps, then the address.
      (
        "swarm key", [.address(address, of: .swarm)],
        .init(seeds: 1, publicKeys: 3, hmacs: 6)
      ),
      (
        "overlay", [.overlay([UInt8](repeating: 1, count: 32))],
        .init(seeds: 1, publicKeys: 3, hmacs: 6)
      ),
      // Swarm (3) + wallet 0 (its sibling: 1) + publisher 0 (3); HMACs: m, 44', 60', 0', 0,
      // /0, /1, 73406', 0', 0, 0.
      (
        "--address --accounts 1", [.address(address, accounts: 1)],
        .init(seeds: 1, publicKeys: 7, hmacs: 11)
      ),
      // Wallets: 0'/0 shared by swarm, wallet 0, metamask 2 (2 + 3), wallets 1 and 2 (3 each);
      // publishers 0-2 (3 each). HMACs: m, 44', 60', 3 × i', 3 × i'/0, 0'/0/{0,1,2}, 1'/0/0,
      // 2'/0/0, 73406', 3 × i', 3 × i'/0, 3 × i'/0/0.
      (
        "--address (accounts 3)", [.address(address)],
        .init(seeds: 1, publicKeys: 20, hmacs: 24)
      ),
      // m/44'/60'/0', m/44'/60'/0'/0 and 20 addresses; HMACs m, 44', 60', 0', 0 and 20.
      (
        "--path m/44'/60'/0'/0/{0-19}", [.address(address, paths: template)],
        .init(seeds: 1, publicKeys: 22, hmacs: 25)
      ),
      // The largest template: m/44'/60'/0', its 10 children and 1000 addresses; HMACs m,
      // 44', 60', 0', 10 and 1000.
      (
        "--path m/44'/60'/0'/{0-9}/{0-99}",
        [.address(address, paths: try! DerivationPathTemplate("m/44'/60'/0'/{0-9}/{0-99}").paths)],
        .init(seeds: 1, publicKeys: 1011, hmacs: 1014)
      ),
      // m, 44', 73405', then 5 × (i', 0', 0').
      (
        "--peer-id --path m/44'/73405'/{0-4}'/0'/0'",
        [try! .peerID(other.ipfs.peerID, paths: ed25519Template)],
        .init(seeds: 1, hmacs: 18, ed25519Keys: 5)
      ),
      // Both curves: 20 + 0 public keys, 24 + (m, 44', 73405', 0', 0', 0', 73404', 0', 0',
      // 0') HMACs, 2 key pairs.
      (
        "address, peer id and did",
        [.address(address), .peerID(other.ipfs.peerID), .radicle(other.radicle.radicle)],
        .init(seeds: 1, publicKeys: 20, hmacs: 34, ed25519Keys: 2)
      ),
    ]
  }()

  @Test(arguments: 0..<minimal.count)
  func workPerSeedIsTheFewest(_ index: Int) {
    let (name, targets, fewest) = Self.minimal[index]
    let matcher = TargetMatcher(targets: targets)
    #expect(matcher.fewestPerSeed == fewest, "\(name)")
    #expect(matcher.match(seed: Self.profile.seed) == nil, "\(name)")
    #expect(matcher.stats == fewest, "\(name): computed \(matcher.stats)")
    // A second seed costs the same again: nothing is cached across seeds.
    let third = SecureBytes([UInt8](repeating: 9, count: 64))
    #expect(matcher.firstMatch(in: [Self.profile.seed, third]) == nil)
    var three = fewest
    three.seeds *= 3
    three.publicKeys *= 3
    three.hmacs *= 3
    three.ed25519Keys *= 3
    #expect(matcher.stats == three, "\(name): computed \(matcher.stats) for 3 seeds")
  }

  @Test func theCheapestIdentityIsTriedFirstAndAMatchStops() throws {
    // A key pair and 6 HMACs before any secp256k1 work.
    let both = TargetMatcher(targets: [
      .address(Self.other.swarm.address), .peerID(Self.profile.ipfs.peerID),
    ])
    #expect(both.match(seed: Self.profile.seed) == "ipfs.peerId")
    #expect(both.stats == .init(seeds: 1, hmacs: 6, ed25519Keys: 1))
    // The Swarm wallet comes first of the addresses, and its match ends the seed.
    let swarm = TargetMatcher(targets: [.address(Self.profile.swarm.address)])
    #expect(swarm.match(seed: Self.profile.seed) == "swarm.address")
    #expect(swarm.stats == .init(seeds: 1, publicKeys: 3, hmacs: 6))
    // Wallet 0 is its sibling: one more step and one more public key.
    let wallet = TargetMatcher(targets: [.address(Self.profile.wallet.address)])
    #expect(wallet.match(seed: Self.profile.seed) == "wallet.address")
    #expect(wallet.stats == .init(seeds: 1, publicKeys: 4, hmacs: 7))
    // firstMatch says which seed matched.
    let found = swarm.firstMatch(in: [Self.other.seed, Self.profile.seed, Self.other.seed])
    #expect(found?.index == 1)
    #expect(found?.label == "swarm.address")
  }

  /// A batch's Ed25519 nodes are derived ahead, several seeds at a time in SIMD lanes where the
  /// seed engine has them: the seed that matches, its label and the work counted are what one
  /// seed at a time gives, wherever the seed sits in the batch (past a full group of lanes).
  @Test(arguments: [0, 7, 8, 12])
  func aBatchMatchesAsOneSeedAtATime(_ position: Int) throws {
    var seeds = (0..<13).map { SecureBytes([UInt8](repeating: UInt8(20 + $0), count: 64)) }
    seeds[position] = Self.profile.seed
    let ed25519Paths = try DerivationPathTemplate("m/44'/73405'/{0-4}'/0'/0'").paths
    let third = try Self.profile.ed25519Identity(at: Self.path("m/44'/73405'/3'/0'/0'"))
    let cases: [(targets: [RecoveryTarget], label: String)] = [
      ([.peerID(Self.profile.ipfs.peerID)], "ipfs.peerId"),
      ([.radicle(Self.profile.radicle.radicle)], "radicle.did"),
      ([try .peerID(third.peerID, paths: ed25519Paths)], "m/44'/73405'/3'/0'/0'"),
      (
        [.address(Self.other.swarm.address), .radicle(Self.profile.radicle.radicle)],
        "radicle.did"
      ),
    ]
    for (targets, label) in cases {
      let batch = TargetMatcher(targets: targets)
      let found = batch.firstMatch(in: seeds)
      #expect(found?.index == position, "\(label)")
      #expect(found?.label == label)
      let single = TargetMatcher(targets: targets)
      for seed in seeds[...position] { _ = single.match(seed: seed) }
      #expect(batch.stats == single.stats, "\(label)")
    }
    // No match in a batch of other seeds.
    seeds[position] = Self.other.seed
    #expect(
      TargetMatcher(targets: [.peerID(Self.profile.ipfs.peerID)]).firstMatch(in: seeds) == nil)
  }
}

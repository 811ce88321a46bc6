import CryptoPrimitives
import Testing
import VaultKeys

@testable import Recovery

/// The targets given as text become the targets searched for, or say what is wrong.
@Suite("recover: targets given as text")
struct GivenTargetsTests {
  typealias F = RecoveryFixture

  static func address() throws -> String {
    try F.profile(F.words(F.legalWinner), .english).swarm.address.checksummed
  }

  @Test func anAddressIsTriedAtTheAccountsOrATemplatesPaths() throws {
    var given = GivenTargets()
    given.address = try Self.address()
    given.accounts = 5
    let address = try EthereumAddress(try Self.address())
    let (byAccounts, atAccounts) = try given.targets()
    #expect(atAccounts)
    #expect(byAccounts == [.address(address, accounts: 5)])
    #expect(byAccounts != [.address(address, accounts: 3)])

    given.pathTemplate = "m/44'/60'/0'/0/{0-19}"
    let (byTemplate, atAccountsAgain) = try given.targets()
    #expect(!atAccountsAgain)
    let paths = try DerivationPathTemplate("m/44'/60'/0'/0/{0-19}").paths
    #expect(paths.count == 20)
    #expect(byTemplate == [.address(address, paths: paths)])

    given.accountsGiven = true
    #expect(throws: GivenTargetError.self) { try given.targets() }
    #expect(throws: Never.self) { try GivenTargets().targets() }
    #expect(try GivenTargets().targets().targets.isEmpty)
  }

  @Test func whatIsWrongIsTyped() throws {
    func error(_ change: (inout GivenTargets) -> Void) -> GivenTargetError? {
      var given = GivenTargets()
      change(&given)
      do {
        _ = try given.targets()
        return nil
      } catch {
        return error
      }
    }
    guard case .templateNeedsOneTarget = error({ $0.pathTemplate = "m/0" }) else {
      Issue.record("a template without a target")
      return
    }
    guard case .address = error({ $0.address = "0x12" }) else {
      Issue.record("a short address")
      return
    }
    guard case .peerID = error({ $0.peerID = "12D3" }) else {
      Issue.record("a short PeerID")
      return
    }
    guard case .did = error({ $0.did = "did:key:z6" }) else {
      Issue.record("a short DID")
      return
    }
    // Ed25519 keys are derived through hardened steps only.
    let peerID = try F.profile(F.words(F.legalWinner), .english).ipfs.peerID.description
    let notHardened = error {
      $0.peerID = peerID
      $0.pathTemplate = "m/44'/73405'/0'/0/{0-1}"
    }
    guard case .ed25519Path(.nonHardenedEd25519(let position, _)) = notHardened else {
      Issue.record("a step not hardened: \(String(describing: notHardened))")
      return
    }
    #expect(position == 4)
  }

  @Test func anOverlayAndItsParameters() throws {
    #expect(try GivenTargets.overlay(nil, networkID: nil, nonce: nil) == nil)
    let hex = String(repeating: "ab", count: 32)
    let target = try GivenTargets.overlay(hex, networkID: 10, nonce: nil)
    let zero = [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount)
    #expect(target == .overlay([UInt8](repeating: 0xAB, count: 32), networkID: 10, nonce: zero))
    let mainnet = try GivenTargets.overlay(
      hex, networkID: nil, nonce: [UInt8](repeating: 1, count: 32))
    #expect(
      mainnet
        == .overlay(
          [UInt8](repeating: 0xAB, count: 32), networkID: SwarmOverlay.mainnet,
          nonce: [UInt8](repeating: 1, count: 32)))
    #expect(throws: GivenTargetError.self) {
      try GivenTargets.overlay(String(hex.dropLast(2)), networkID: nil, nonce: nil)
    }
    #expect(throws: GivenTargetError.self) {
      try GivenTargets.overlay(nil, networkID: 1, nonce: nil)
    }
  }
}

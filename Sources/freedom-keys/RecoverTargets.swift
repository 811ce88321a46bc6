import CommandLineKit
import Recovery

extension RecoverCommand {
  /// The targets the options name (not the directories'), and whether an --address is looked
  /// for at --accounts' paths (not at --path's).
  static func parseTargets(_ arguments: ParsedArguments, accounts: Int) throws(CLIError)
    -> ([RecoveryTarget], addressByAccounts: Bool)
  {
    /// `body`'s value, or its error worded as a usage error naming the option.
    func words<T>(_ body: () throws(GivenTargetError) -> T) throws(CLIError) -> T {
      do {
        return try body()
      } catch {
        throw arguments.usage(message(error))
      }
    }
    var given = GivenTargets()
    (given.address, given.pathTemplate) = (arguments.value(address), arguments.value(path))
    (given.peerID, given.did) = (arguments.value(peerID), arguments.value(did))
    (given.accounts, given.accountsGiven) = (accounts, arguments.value(Self.accounts) != nil)
    // The typed values are read between the two, as before: errors come in the same order.
    var (targets, byAccounts) = try words { () throws(GivenTargetError) in try given.targets() }
    let networkID = try arguments.value(Self.networkID)
    let nonce = try arguments.value(Self.overlayNonce)
    let overlay = try words { () throws(GivenTargetError) in
      try GivenTargets.overlay(arguments.value(Self.overlay), networkID: networkID, nonce: nonce)
    }
    if let overlay { targets.append(overlay) }
    return (targets, byAccounts)
  }

  /// The one line for targets that cannot be searched for, naming the option to change.
  private static func message(_ error: GivenTargetError) -> String {
    switch error {
    case .templateNeedsOneTarget:
      "--path <template> applies to one target: give it with one of --address, --peer-id or --did"
    case .templateAndAccounts:
      "--path <template> names the paths itself: give --accounts <n> or --path, not both"
    case .template(let error): "--path: \(error)"
    case .address(let error): "--address: \(error)"
    case .peerID(let error): "--peer-id: \(error)"
    case .did(let error): "--did: \(error)"
    case .ed25519Path(.nonHardenedEd25519(let position, _)):
      "--path: a PeerID or DID key (Ed25519, SLIP-0010) is derived through hardened steps "
        + "only, and step \(position) is not: mark every step with ', as in m/44'/73405'/{0-4}'/0'/0'"
    case .ed25519Path(let error): "--path: \(error)"
    case .overlay: "--overlay <hex> must be 64 hex digits (32 bytes)"
    case .overlayParametersWithoutOverlay:
      "--network-id and --overlay-nonce only apply with --overlay <hex>"
    }
  }
}

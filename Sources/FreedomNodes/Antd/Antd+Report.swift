import NodeFiles
import VaultKeys

extension Antd.Plan {
  /// The lines an antd export (and a desktop installation's for its antd part) reports;
  /// `startsAntd` false when antd is desktop's (Freedom starts it).
  package func report(profile: FreedomProfile, startsAntd: Bool = true) throws -> String {
    let plan = self
    let expected = plan.expected.checksummed
    guard plan.change != nil else {
      return NodeChangeResult.KeptAside.unchanged(
        plan.keystorePath, "the Swarm key \(expected), opened by \(Antd.configFile)'s password")
    }
    var report =
      plan.keystore == .keep
      ? "\(plan.keystorePath) already holds the Swarm key \(expected)\n"
      : "Wrote \(plan.keystorePath): Swarm key \(expected) (scrypt n=\(Web3Keystore.beeScryptN), mode 0600)\n"
    switch plan.password {
    case .keptFromConfig: report += "Password: the one in \(plan.configPath) (kept)\n"
    case .keptFromPasswordFile(let file):
      report +=
        "Password: the one in \(file), as \(Antd.configFile)'s password-file names it (kept)\n"
    case .wroteRandom:
      report += "Wrote a new random password into \(plan.configPath)'s password: line (mode 0600)\n"
    case .wroteGiven:
      report += "Wrote the password given into \(plan.configPath)'s password: line (mode 0600)\n"
    }
    switch plan.keystore {
    case .rewrite(nil):
      report +=
        "Rewrote \(plan.keystorePath) with that password: it holds the mnemonic's key but did "
        + "not open with it\n"
    case .rewrite(let refusal?):
      report += "Rewrote \(plan.keystorePath) as antd reads it: \(refusal)\n"
    case .replace(.key(let key)): report += "Replaced the key of \(key)\n"
    case .replace(.keyWithoutAddress): report += "Replaced a key without address\n"
    default: break
    }
    if startsAntd { report += "Start antd with: antd --config=\(plan.configPath)\n" }
    report +=
      "Overlay on mainnet (antd uses nonce 0 with a keystore): \(try profile.swarmOverlay().hex)\n"
    return report
  }
}

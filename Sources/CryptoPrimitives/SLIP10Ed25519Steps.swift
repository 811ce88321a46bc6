/// The SLIP-0010 Ed25519 nodes a device derives from each BIP-39 seed after its PBKDF2: a tree of
/// hardened steps under the master node (HMAC-SHA512 keyed "ed25519 seed"), and the nodes whose
/// 32-byte keys come back. Every Ed25519 step is hardened, so the whole tree is HMACs; only the
/// public keys are left to the CPU.
public struct SLIP10Ed25519Steps: Sendable, Equatable {
  /// A node below the master: its parent's number (0 is the master, node n is `steps[n - 1]`)
  /// and its child index, 2^31 set.
  public struct Step: Sendable, Equatable {
    public let parent: Int
    public let index: UInt32

    public init(parent: Int, index: UInt32) {
      self.parent = parent
      self.index = index
    }
  }

  /// The nodes after the master, parents first.
  public let steps: [Step]
  /// The nodes whose keys come back, in this order.
  public let outputs: [Int]

  /// The number of nodes, the master included.
  public var nodeCount: Int { steps.count + 1 }

  /// Steps whose parents come before them and whose indices are hardened, and outputs among
  /// the nodes; anything else is a bug in the caller.
  public init(steps: [Step], outputs: [Int]) {
    for (position, step) in steps.enumerated() {
      precondition((0...position).contains(step.parent), "a step's parent comes first")
      precondition(step.index >= 1 << 31, "SLIP-0010 Ed25519 steps are hardened")
    }
    precondition(outputs.allSatisfy { (0...steps.count).contains($0) }, "outputs are nodes")
    self.steps = steps
    self.outputs = outputs
  }

  /// The keys of `outputs` from `seed`, on the CPU: `outputs.count` × 32 bytes, what a device's
  /// kernel returns for one seed.
  public func keys(seed: SecureBytes) -> SecureBytes {
    var nodes = [HMACSHA512.authenticate(key: Array("ed25519 seed".utf8), message: seed)]
    _ = SecureBytes(count: HardenedChild.messageByteCount) { message in
      for step in steps {
        let parent = nodes[step.parent]
        nodes.append(
          HardenedChild.authenticate(
            privateKey: parent[0..<32], chainCode: parent[32..<64], rawIndex: step.index,
            message: message))
      }
    }
    return SecureBytes(count: 32 * outputs.count) { out in
      for (position, node) in outputs.enumerated() {
        nodes[node].withUnsafeBytes {
          (out.baseAddress! + 32 * position).copyMemory(from: $0.baseAddress!, byteCount: 32)
        }
      }
    }
  }
}

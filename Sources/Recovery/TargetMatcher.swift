import CryptoPrimitives
import VaultKeys

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Derives from a seed only what the targets need and compares raw bytes.
///
/// Every path of every identity is one branch of a prefix tree per curve, so a common parent
/// (m/44'/60' of all wallets, m/44'/60'/0'/0 of the Swarm wallet, wallet 0 and every MetaMask
/// account, m/44'/73406' of the publishers, a `--path` template's shared prefix) is derived once
/// per seed, and a node's secp256k1 public key is computed only when a non-hardened child or an
/// address needs it, at most once. The identities are tried in the order that adds the least
/// work first, and the first match ends the seed.
///
/// Each node's key and chain code live in one wiped scratch buffer per batch of seeds; the
/// per-node steps run in place through libsecp256k1, libsodium and OpenSSL's SHA-512 with no
/// key objects and no allocation. A parent's HMAC key (its chain code) is keyed once and its
/// pad states kept for every child, and the masters' keys ("Bitcoin seed", "ed25519 seed") are
/// keyed once per matcher, so each HMAC costs two SHA-512 compressions. Where the seed engine
/// runs in SIMD lanes, a batch's Ed25519 nodes (SLIP-0010's steps, all hardened) are derived
/// ahead for every seed of the batch, as many seeds at a time as the lanes hold.
/// One per worker thread: it counts its work in `stats` and shares nothing.
package final class TargetMatcher {
  /// What the matcher computed: per seed, or in total.
  package struct Stats: Sendable, Equatable, CustomStringConvertible {
    /// Seeds matched against the targets.
    package var seeds = 0
    /// secp256k1 public keys, one point multiplication each.
    package var publicKeys = 0
    /// HMAC-SHA512s: the masters and one per child step.
    package var hmacs = 0
    /// Ed25519 key pairs (PeerIDs, DIDs).
    package var ed25519Keys = 0

    package init(seeds: Int = 0, publicKeys: Int = 0, hmacs: Int = 0, ed25519Keys: Int = 0) {
      self.seeds = seeds
      self.publicKeys = publicKeys
      self.hmacs = hmacs
      self.ed25519Keys = ed25519Keys
    }

    package var description: String {
      "\(publicKeys) secp256k1 public keys, \(hmacs) HMAC-SHA512, \(ed25519Keys) Ed25519 keys"
    }
  }

  private enum Curve { case secp256k1, ed25519 }

  /// A node of the tree: a master (no component) or a child step.
  private struct Node {
    let curve: Curve
    let parent: Int?
    let component: DerivationPath.Component?
    /// A non-hardened child or an address needs this node's public key.
    var needsPublicKey = false
  }

  /// One identity to try: its node and the targets it may match.
  private struct Entry {
    let node: Int
    let identity: RecoveryIdentity
    let targets: [Int]
  }

  private let targets: [RecoveryTarget]
  private let nodes: [Node]
  /// The Ed25519 nodes in the tree's order (parents first), and each node's place among them.
  private let ed25519Nodes: [Int]
  private let ed25519Index: [Int?]
  /// Where a batch's Ed25519 nodes were derived ahead, in SIMD lanes, and which seed of the
  /// batch is at hand: per seed, per Ed25519 node, key ‖ chain code.
  private var derivedAhead: UnsafeMutableRawPointer?
  private var seedAtHand = 0
  /// The Ed25519 nodes a device derives after each seed's PBKDF2 (nil without Ed25519 nodes),
  /// each node's place among their outputs (the identities' nodes), and, for the batch at
  /// hand, the keys the device derived: per seed, 32 bytes an output.
  package let ed25519Steps: SLIP10Ed25519Steps?
  private let ed25519Output: [Int?]
  private var deviceKeys: [SecureBytes]?
  /// Whether any identity is secp256k1, so its seeds are needed even with `deviceKeys`.
  package let needsSeeds: Bool
  /// The identities, in the order that adds the least work first.
  private let plan: [Entry]
  /// Per node, for the seed at hand: derived, valid, public key computed.
  private var flags: [UInt8]
  /// The work one seed that matches nothing takes: the fewest the identities need, every node
  /// of the tree once and a public key only where a non-hardened child or an address needs it.
  package let fewestPerSeed: Stats
  /// What this matcher computed so far.
  package private(set) var stats = Stats()

  private static let derived: UInt8 = 1
  private static let valid: UInt8 = 2
  private static let hasPublicKey: UInt8 = 4
  private static let hasPads: UInt8 = 8
  /// Per node in the scratch: key ‖ chain code (64), compressed public key (33, at 64),
  /// point X ‖ Y or the Ed25519 public key (64, at 128), the pad states of the chain code as
  /// its children's HMAC key (128, at 192).
  private static let stride = 320
  private static let keyBytes = 32
  private static let compressedOffset = 64
  private static let pointOffset = 128
  private static let padsOffset = 192
  /// After the nodes: a child's HMAC message, 0x00 ‖ k or serP(K), then ser32(i) (37 bytes,
  /// at 0); the HMAC's tag (64, at 48); a Keccak-256 digest (32, at 112).
  private static let messageBytes = 37
  private static let tagOffset = 48
  private static let digestOffset = 112
  private static let workBytes = 144
  /// The pad states of the masters' public HMAC keys, "Bitcoin seed" and "ed25519 seed".
  private static let secp256k1MasterPads = masterPads("Bitcoin seed")
  private static let ed25519MasterPads = masterPads("ed25519 seed")
  private static let ed25519MasterKey = Array("ed25519 seed".utf8)
  /// What stands for a seed that stayed on the device (only Ed25519 identities, which take
  /// their keys from `deviceKeys`).
  private static let noSeed = SecureBytes(count: 0) { _ in }

  private static func masterPads(_ key: String) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: HMACSHA512.padsByteCount) { pads, count in
      Array(key.utf8).withUnsafeBytes {
        HMACSHA512.preparePads(key: $0, into: UnsafeMutableRawPointer(pads.baseAddress!))
      }
      count = HMACSHA512.padsByteCount
    }
  }

  package init(targets: [RecoveryTarget]) {
    self.targets = targets
    var nodes: [Node] = []
    var masters: [Curve: Int] = [:]
    var children: [Int: [DerivationPath.Component: Int]] = [:]
    var entryOf: [RecoveryIdentity: Int] = [:]
    var found: [(node: Int, identity: RecoveryIdentity, targets: [Int])] = []
    for (targetIndex, target) in targets.enumerated() {
      for identity in target.identities {
        if let entry = entryOf[identity] {
          found[entry].targets.append(targetIndex)
          continue
        }
        let curve: Curve = identity.isEd25519 ? .ed25519 : .secp256k1
        var node: Int
        if let master = masters[curve] {
          node = master
        } else {
          nodes.append(Node(curve: curve, parent: nil, component: nil))
          node = nodes.count - 1
          masters[curve] = node
        }
        for component in identity.path.components {
          if let child = children[node]?[component] {
            node = child
            continue
          }
          if !component.isHardened { nodes[node].needsPublicKey = true }
          nodes.append(Node(curve: curve, parent: node, component: component))
          children[node, default: [:]][component] = nodes.count - 1
          node = nodes.count - 1
        }
        if curve == .secp256k1 { nodes[node].needsPublicKey = true }
        found.append((node, identity, [targetIndex]))
        entryOf[identity] = found.count - 1
      }
    }
    self.nodes = nodes
    flags = [UInt8](repeating: 0, count: nodes.count)
    ed25519Nodes = nodes.indices.filter { nodes[$0].curve == .ed25519 }
    var ed25519Index = [Int?](repeating: nil, count: nodes.count)
    for (position, node) in ed25519Nodes.enumerated() { ed25519Index[node] = position }
    self.ed25519Index = ed25519Index
    needsSeeds = nodes.contains { $0.curve == .secp256k1 }
    var ed25519Output = [Int?](repeating: nil, count: nodes.count)
    var outputs: [Int] = []
    for entry in found where nodes[entry.node].curve == .ed25519 {
      guard let position = ed25519Index[entry.node], ed25519Output[entry.node] == nil else {
        continue
      }
      ed25519Output[entry.node] = outputs.count
      outputs.append(position)
    }
    self.ed25519Output = ed25519Output
    // SLIP-0010's Ed25519 steps are all hardened (`RecoveryTarget` refuses any other), so the
    // whole tree is HMACs a device can run; the master is the first Ed25519 node.
    let steps = ed25519Nodes.dropFirst().compactMap { node -> SLIP10Ed25519Steps.Step? in
      guard let parent = nodes[node].parent, let component = nodes[node].component,
        component.isHardened, let parentPosition = ed25519Index[parent]
      else { return nil }
      return SLIP10Ed25519Steps.Step(parent: parentPosition, index: component.rawIndex)
    }
    ed25519Steps =
      ed25519Nodes.isEmpty || steps.count != ed25519Nodes.count - 1
      ? nil : SLIP10Ed25519Steps(steps: steps, outputs: outputs)

    // Cheapest first: each step takes the identity whose missing work costs least, counting a
    // point multiplication (secp256k1 or Ed25519) as 16 HMACs, about what they cost here.
    var derived = [Bool](repeating: false, count: nodes.count)
    var keyed = [Bool](repeating: false, count: nodes.count)
    /// The HMACs and point multiplications `node` adds to what is derived; with `commit`, marks
    /// them derived.
    func cost(_ node: Int, commit: Bool) -> Int {
      var total = 0
      var current: Int? = node
      var needsKey = nodes[node].curve == .secp256k1
      while let index = current {
        if needsKey, !keyed[index] {
          total += 16
          if commit { keyed[index] = true }
        }
        if derived[index] { break }
        total += 1
        if commit { derived[index] = true }
        needsKey = nodes[index].component.map { !$0.isHardened } ?? false
        current = nodes[index].parent
      }
      return total + (nodes[node].curve == .ed25519 ? 16 : 0)
    }
    var ordered: [Entry] = []
    var remaining = found
    while !remaining.isEmpty {
      var best = 0
      var bestCost = Int.max
      for (position, entry) in remaining.enumerated() {
        let added = cost(entry.node, commit: false)
        if added < bestCost { (best, bestCost) = (position, added) }
      }
      let entry = remaining.remove(at: best)
      _ = cost(entry.node, commit: true)
      ordered.append(Entry(node: entry.node, identity: entry.identity, targets: entry.targets))
    }
    plan = ordered
    fewestPerSeed = Stats(
      seeds: 1, publicKeys: nodes.filter { $0.curve == .secp256k1 && $0.needsPublicKey }.count,
      hmacs: nodes.count, ed25519Keys: found.filter { nodes[$0.node].curve == .ed25519 }.count)
  }

  /// The label of the first target the seed's identities match, or nil.
  package func match(seed: SecureBytes) -> String? {
    firstMatch(in: [seed])?.label
  }

  /// The first seed of `seeds` whose identities match a target: its position and the label.
  /// With `ed25519Keys` (a device's derivation of `ed25519Steps`, one a seed), the Ed25519
  /// identities take their keys from it, and `seeds` may be empty unless `needsSeeds`.
  package func firstMatch(in seeds: [SecureBytes], ed25519Keys: [SecureBytes]? = nil)
    -> (index: Int, label: String)?
  {
    let count = ed25519Keys?.count ?? seeds.count
    precondition(seeds.count == count || (seeds.isEmpty && !needsSeeds), "a seed each")
    guard !plan.isEmpty, count > 0 else { return nil }
    var result: (index: Int, label: String)?
    let lanes =
      ed25519Keys != nil || ed25519Nodes.isEmpty || seeds.count < 2
        || seeds.contains(where: { $0.count != 64 })
      ? nil : HMACSHA512Lanes.laneCount
    let aheadBytes = lanes == nil ? 0 : seeds.count * ed25519Nodes.count * 64
    let laneBytes = lanes.map { HMACSHA512Lanes.scratchByteCount + $0 * 64 } ?? 0
    let own = nodes.count * Self.stride + Self.workBytes
    _ = SecureBytes(count: own + aheadBytes + laneBytes) { scratch in
      let base = scratch.baseAddress!
      if let lanes {
        deriveEd25519Ahead(seeds, lanes: lanes, into: base + own, work: base + own + aheadBytes)
        derivedAhead = base + own
      }
      deviceKeys = ed25519Keys
      defer {
        derivedAhead = nil
        deviceKeys = nil
      }
      for index in 0..<count {
        seedAtHand = index
        if let label = match(seed: seeds.isEmpty ? Self.noSeed : seeds[index], scratch: base) {
          result = (index, label)
          break
        }
      }
    }
    return result
  }

  /// Every Ed25519 node of every seed, parents first, `lanes` seeds at a time through the
  /// SIMD-lane HMAC (SLIP-0010's steps are all hardened, so none can fail): key ‖ chain code per
  /// seed and node at `ahead`. `work` holds the lanes' words and then their messages (64 bytes
  /// each).
  private func deriveEd25519Ahead(
    _ seeds: [SecureBytes], lanes: Int, into ahead: UnsafeMutableRawPointer,
    work: UnsafeMutableRawPointer
  ) {
    let messages = work + HMACSHA512Lanes.scratchByteCount
    func slot(_ seed: Int, _ node: Int) -> UnsafeMutableRawPointer {
      ahead + (seed * ed25519Nodes.count + ed25519Index[node]!) * 64
    }
    for node in ed25519Nodes {
      var start = 0
      while start < seeds.count {
        let count = min(lanes, seeds.count - start)
        let first = start
        if let parent = nodes[node].parent, let component = nodes[node].component {
          // 0x00 ‖ k_parent ‖ ser32(i), under the parent's chain code.
          for lane in 0..<count {
            let message = messages + lane * 64
            message.storeBytes(of: 0, as: UInt8.self)
            (message + 1).copyMemory(from: slot(first + lane, parent), byteCount: Self.keyBytes)
            message.storeBytes(
              of: component.rawIndex.bigEndian, toByteOffset: 33, as: UInt32.self)
          }
          HMACSHA512Lanes.authenticate(
            count: count,
            key: {
              UnsafeRawBufferPointer(start: slot(first + $0, parent) + Self.keyBytes, count: 32)
            },
            message: {
              UnsafeRawBufferPointer(start: messages + $0 * 64, count: Self.messageBytes)
            },
            tag: { slot(first + $0, node) }, scratch: work)
        } else {
          // The seed under "ed25519 seed".
          for lane in 0..<count {
            seeds[first + lane].withUnsafeBytes {
              (messages + lane * 64).copyMemory(from: $0.baseAddress!, byteCount: 64)
            }
          }
          Self.ed25519MasterKey.withUnsafeBytes { masterKey in
            HMACSHA512Lanes.authenticate(
              count: count, key: { _ in masterKey },
              message: { UnsafeRawBufferPointer(start: messages + $0 * 64, count: 64) },
              tag: { slot(first + $0, node) }, scratch: work)
          }
        }
        start += count
      }
    }
  }

  private func match(seed: SecureBytes, scratch: UnsafeMutableRawPointer) -> String? {
    stats.seeds += 1
    for index in flags.indices { flags[index] = 0 }
    for entry in plan {
      guard derive(entry.node, seed, scratch) else { continue }
      let slot = scratch + entry.node * Self.stride
      if nodes[entry.node].curve == .ed25519 {
        stats.ed25519Keys += 1
        let publicKey = slot + Self.pointOffset
        Ed25519.publicKey(seed: slot, into: publicKey)
        for target in entry.targets {
          if case .ed25519(let raw) = targets[target].value,
            Self.equal(raw, UnsafeRawBufferPointer(start: publicKey, count: raw.count))
          {
            return targets[target].label(for: entry.identity)
          }
        }
        continue
      }
      publicKey(entry.node, scratch)
      let digest = scratch + nodes.count * Self.stride + Self.digestOffset
      Keccak256.hash(
        UnsafeRawBufferPointer(start: slot + Self.pointOffset, count: 64), into: digest)
      let address = UnsafeRawBufferPointer(
        start: digest + Keccak256.byteCount - EthereumAddress.byteCount,
        count: EthereumAddress.byteCount)
      for target in entry.targets {
        switch targets[target].value {
        case .address(let raw) where Self.equal(raw, address):
          return targets[target].label(for: entry.identity)
        case .overlay(let raw, let networkID, let nonce):
          if let address = try? EthereumAddress(rawRepresentation: Array(address)),
            let overlay = try? SwarmOverlay(address: address, networkID: networkID, nonce: nonce),
            overlay.rawRepresentation == raw
          {
            return targets[target].label(for: entry.identity)
          }
        default: continue
        }
      }
    }
    return nil
  }

  /// Derives `node` (and the parents it lacks) into its slot; false when BIP-32 declares it
  /// or a parent invalid.
  private func derive(_ node: Int, _ seed: SecureBytes, _ scratch: UnsafeMutableRawPointer)
    -> Bool
  {
    if flags[node] & Self.derived != 0 { return flags[node] & Self.valid != 0 }
    flags[node] |= Self.derived
    let slot = scratch + node * Self.stride
    let curve = nodes[node].curve
    if let keys = deviceKeys, ed25519Index[node] != nil {
      // Derived on the device, parents first, each counted as computed; only the identities'
      // nodes came back, the others' keys are never read.
      if let parent = nodes[node].parent { _ = derive(parent, seed, scratch) }
      stats.hmacs += 1
      if let output = ed25519Output[node] {
        keys[seedAtHand].withUnsafeBytes {
          slot.copyMemory(from: $0.baseAddress! + 32 * output, byteCount: Self.keyBytes)
        }
      }
      flags[node] |= Self.valid
      return true
    }
    if let ahead = derivedAhead, let position = ed25519Index[node] {
      // Taken from the batch's derivation, parents first, each counted as computed.
      if let parent = nodes[node].parent { _ = derive(parent, seed, scratch) }
      stats.hmacs += 1
      slot.copyMemory(
        from: ahead + (seedAtHand * ed25519Nodes.count + position) * 64, byteCount: 64)
      flags[node] |= Self.valid
      return true
    }
    guard let parent = nodes[node].parent, let component = nodes[node].component else {
      stats.hmacs += 1
      let pads = curve == .secp256k1 ? Self.secp256k1MasterPads : Self.ed25519MasterPads
      pads.withUnsafeBytes { pads in
        seed.withUnsafeBytes {
          HMACSHA512.authenticate($0, pads: pads.baseAddress!, into: slot)
        }
      }
      if curve == .secp256k1, !Secp256k1.isValidPrivateKey(slot) { return false }
      flags[node] |= Self.valid
      return true
    }
    guard derive(parent, seed, scratch) else { return false }
    let parentSlot = scratch + parent * Self.stride
    let message = scratch + nodes.count * Self.stride
    let tag = message + Self.tagOffset
    if component.isHardened {
      message.storeBytes(of: 0, as: UInt8.self)
      (message + 1).copyMemory(from: parentSlot, byteCount: Self.keyBytes)
    } else {
      publicKey(parent, scratch)
      message.copyMemory(
        from: parentSlot + Self.compressedOffset, byteCount: Secp256k1.PublicKey.compressedByteCount
      )
    }
    message.storeBytes(of: component.rawIndex.bigEndian, toByteOffset: 33, as: UInt32.self)
    if flags[parent] & Self.hasPads == 0 {
      flags[parent] |= Self.hasPads
      HMACSHA512.preparePads(
        key: UnsafeRawBufferPointer(start: parentSlot + Self.keyBytes, count: 32),
        into: parentSlot + Self.padsOffset)
    }
    stats.hmacs += 1
    HMACSHA512.authenticate(
      UnsafeRawBufferPointer(start: message, count: Self.messageBytes),
      pads: parentSlot + Self.padsOffset, into: curve == .ed25519 ? slot : tag)
    if curve == .secp256k1 {
      // k_child = IL + k_parent; libsecp256k1 rejects IL ≥ n and a zero sum, the two cases
      // BIP-32 declares invalid.
      slot.copyMemory(from: parentSlot, byteCount: Self.keyBytes)
      (slot + Self.keyBytes).copyMemory(from: tag + Self.keyBytes, byteCount: Self.keyBytes)
      guard Secp256k1.addTweak(tag, toPrivateKey: slot) else { return false }
    }
    flags[node] |= Self.valid
    return true
  }

  /// Whether `expected` holds exactly the bytes at `actual` (public data, so not constant-time).
  private static func equal(_ expected: [UInt8], _ actual: UnsafeRawBufferPointer) -> Bool {
    expected.elementsEqual(actual)
  }

  /// Computes the public key of a derived, valid secp256k1 node once.
  private func publicKey(_ node: Int, _ scratch: UnsafeMutableRawPointer) {
    guard flags[node] & Self.hasPublicKey == 0 else { return }
    flags[node] |= Self.hasPublicKey
    stats.publicKeys += 1
    let slot = scratch + node * Self.stride
    Secp256k1.publicKey(
      of: slot, compressed: slot + Self.compressedOffset, point: slot + Self.pointOffset)
  }
}

import CryptoPrimitives
import Testing
import VaultKeys

/// One node of a SLIP-0010 test vector, with the spec's field names.
struct SLIP10Vector: Decodable, Sendable {
  let id: String
  let curve: String
  let seed: String
  let path: String
  /// The parent's fingerprint.
  let fingerprint: String
  let chainCode: String
  let privateKey: String
  /// secp256k1: the compressed point; ed25519: 00 ‖ the 32-byte public key.
  let publicKey: String
}

@Suite struct SLIP10VectorTests {
  private func vectors(curve: String) throws -> [SLIP10Vector] {
    try VectorFile<SLIP10Vector>.load("slip10").vectors.filter { $0.curve == curve }
  }

  @Test func ed25519VectorsOneAndTwo() throws {
    let vectors = try vectors(curve: "ed25519")
    #expect(vectors.count == 12)
    for vector in vectors {
      let master = SLIP10Ed25519Key(seed: SecureBytes([UInt8](hex: vector.seed)))
      let path = try DerivationPath(vector.path)
      let key = try master.derive(path)
      #expect(key.privateKey.rawRepresentation.revealHex() == vector.privateKey, "\(vector.id)")
      #expect(key.chainCode.revealHex() == vector.chainCode, "\(vector.id)")
      #expect(
        "00" + Hex.encode(key.publicKey.rawRepresentation) == vector.publicKey, "\(vector.id)")
      #expect(Hex.encode(key.parentFingerprint) == vector.fingerprint, "\(vector.id)")
      #expect(key.depth == UInt8(path.components.count), "\(vector.id)")
      #expect(key.childNumber == (path.components.last?.rawIndex ?? 0), "\(vector.id)")

      // One child at a time gives the same node as the whole path at once.
      var stepwise = master
      for component in path.components { stepwise = try stepwise.child(component) }
      #expect(
        stepwise.privateKey.rawRepresentation == key.privateKey.rawRepresentation, "\(vector.id)")
      #expect(stepwise.chainCode == key.chainCode, "\(vector.id)")
      #expect(stepwise.parentFingerprint == key.parentFingerprint, "\(vector.id)")
    }
  }

  @Test func ed25519FingerprintIdentifiesTheParent() throws {
    // Each node's own fingerprint is its child's parent fingerprint in the vectors.
    let vectors = try vectors(curve: "ed25519")
    for (parent, child) in zip(vectors, vectors.dropFirst())
    where child.seed == parent.seed && child.path.hasPrefix(parent.path) {
      let key = try SLIP10Ed25519Key(seed: SecureBytes([UInt8](hex: parent.seed)))
        .derive(DerivationPath(parent.path))
      #expect(Hex.encode(key.fingerprint) == child.fingerprint, "\(parent.id)")
    }
  }

  @Test func secp256k1VectorsOneAndTwoThroughBIP32() throws {
    let vectors = try vectors(curve: "secp256k1")
    #expect(vectors.count == 12)
    for vector in vectors {
      let key = try ExtendedPrivateKey(seed: SecureBytes([UInt8](hex: vector.seed)))
        .derive(DerivationPath(vector.path))
      #expect(key.privateKey.rawRepresentation.revealHex() == vector.privateKey, "\(vector.id)")
      #expect(key.chainCode.revealHex() == vector.chainCode, "\(vector.id)")
      #expect(
        Hex.encode(key.publicKey.compressedRepresentation) == vector.publicKey, "\(vector.id)")
      #expect(Hex.encode(key.parentFingerprint) == vector.fingerprint, "\(vector.id)")
    }
  }

  @Test func ed25519RejectsNonHardenedSegments() throws {
    let master = SLIP10Ed25519Key(
      seed: SecureBytes([UInt8](hex: "000102030405060708090a0b0c0d0e0f")))
    let path = try DerivationPath("m/44'/73405'/0")
    let error = #expect(throws: KeyDerivationError.nonHardenedEd25519(position: 3, path: path)) {
      try master.derive(path)
    }
    #expect(
      error?.description
        == "segment 3 ('0') of m/44'/73405'/0 is not hardened: Ed25519 (SLIP-0010) supports "
        + "hardened derivation only — write 0'")
    // The first offending segment is named even when later ones are hardened.
    let early = try DerivationPath("m/1'/2/3'")
    #expect(throws: KeyDerivationError.nonHardenedEd25519(position: 2, path: early)) {
      try master.derive(early)
    }
    let single = try DerivationPath.Component(index: 5, hardened: false)
    #expect(
      throws: KeyDerivationError.nonHardenedEd25519(
        position: 1, path: DerivationPath(components: [single]))
    ) { try master.child(single) }
  }

  @Test func ed25519DerivesRelativeToTheNode() throws {
    let master = SLIP10Ed25519Key(
      seed: SecureBytes([UInt8](hex: "000102030405060708090a0b0c0d0e0f")))
    let whole = try master.derive(DerivationPath("m/0'/1'/2'"))
    let split = try master.derive(DerivationPath("m/0'")).derive(DerivationPath("m/1'/2'"))
    #expect(split.privateKey.rawRepresentation == whole.privateKey.rawRepresentation)
    #expect(split.parentFingerprint == whole.parentFingerprint)
    #expect(split.depth == 3)
    #expect(try master.derive(DerivationPath("m")).chainCode == master.chainCode)
    #expect(!whole.description.contains(whole.privateKey.rawRepresentation.revealHex()))
    #expect(whole.description == "SLIP10Ed25519Key(depth: 3, child: 2', redacted)")
  }
}

/// The fields of a desktop Freedom vector that depend on derivation alone.
private struct FreedomDesktopKeys: Decodable {
  let id: String
  let seed: String
  let swarmPrivateKey: String?
  let ipfsPrivateKey: String
  let ipfsPublicKey: String?
}

@Suite struct FreedomDesktopDerivationTests {
  @Test func freedomPathsGiveTheDesktopKeys() throws {
    let vectors = try VectorFile<FreedomDesktopKeys>.load("freedom-desktop").vectors
    #expect(vectors.count == 2)
    for vector in vectors {
      let seed = SecureBytes([UInt8](hex: vector.seed))
      let ipfs = try SLIP10Ed25519Key(seed: seed).derive(DerivationPath("m/44'/73405'/0'/0'/0'"))
      #expect(
        ipfs.privateKey.rawRepresentation.revealHex() == vector.ipfsPrivateKey, "\(vector.id)")
      if let publicKey = vector.ipfsPublicKey {
        #expect(Hex.encode(ipfs.publicKey.rawRepresentation) == publicKey, "\(vector.id)")
      }
      if let swarmPrivateKey = vector.swarmPrivateKey {
        let swarm = try ExtendedPrivateKey(seed: seed).derive(DerivationPath("m/44'/60'/0'/0/1"))
        #expect(swarm.privateKey.rawRepresentation.revealHex() == swarmPrivateKey, "\(vector.id)")
      }
    }
  }
}

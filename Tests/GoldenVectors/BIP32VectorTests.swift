import CryptoPrimitives
import Foundation
import Testing
import VaultKeys

/// A BIP-32 test vector (1–4): a seed and the keys along one chain, with the BIP's field names.
struct BIP32Vector: Decodable, Sendable {
  struct Chain: Decodable, Sendable {
    let path: String
    let xpub: String
    let xprv: String
  }
  let id: String
  let seed: String
  let chains: [Chain]
}

/// An invalid extended key of BIP-32 test vector 5, with its published reason.
struct BIP32InvalidKey: Decodable, Sendable {
  let id: String
  let key: String
  let reason: String
}

/// `bip32.json` keeps test vector 5 beside `vectors`, under `invalid`.
private struct BIP32InvalidKeys: Decodable {
  let invalid: [BIP32InvalidKey]

  static func load() throws -> [BIP32InvalidKey] {
    let url = try #require(
      Bundle.module.url(forResource: "bip32", withExtension: "json", subdirectory: "Vectors"))
    return try JSONDecoder().decode(Self.self, from: Data(contentsOf: url)).invalid
  }
}

private func xprvText(_ key: ExtendedPrivateKey) -> String {
  key.serialized().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

@Suite struct BIP32VectorTests {
  private let vectors: [BIP32Vector]

  init() throws {
    vectors = try VectorFile<BIP32Vector>.load("bip32").vectors
  }

  @Test func vectorsOneToFourDeriveEveryChainFromTheSeed() throws {
    #expect(vectors.map(\.id) == ["bip32-tv1", "bip32-tv2", "bip32-tv3", "bip32-tv4"])
    for vector in vectors {
      let master = try ExtendedPrivateKey(seed: SecureBytes([UInt8](hex: vector.seed)))
      for chain in vector.chains {
        let path = try DerivationPath(chain.path)
        let key = try master.derive(path)
        #expect(xprvText(key) == chain.xprv, "\(vector.id) \(chain.path)")
        #expect(key.extendedPublicKey.serialized == chain.xpub, "\(vector.id) \(chain.path)")
        #expect(key.depth == UInt8(path.components.count), "\(vector.id) \(chain.path)")

        // One child at a time gives the same node as the whole path at once.
        var stepwise = master
        for component in path.components { stepwise = try stepwise.child(component) }
        #expect(xprvText(stepwise) == chain.xprv, "\(vector.id) \(chain.path) stepwise")
      }
    }
  }

  @Test func vectorsOneToFourParseAndReserializeIdentically() throws {
    for vector in vectors {
      for chain in vector.chains {
        let name = "\(vector.id) \(chain.path)"
        let xprv = try ExtendedPrivateKey(serialized: chain.xprv)
        #expect(xprvText(xprv) == chain.xprv, "\(name)")
        #expect(xprv.extendedPublicKey.serialized == chain.xpub, "\(name)")
        #expect(xprv.network == .mainnet, "\(name)")
        let xpub = try ExtendedPublicKey(serialized: chain.xpub)
        #expect(xpub.serialized == chain.xpub, "\(name)")
        #expect(xpub == xprv.extendedPublicKey, "\(name)")
        #expect(xpub.fingerprint == xprv.fingerprint, "\(name)")
        #expect(xpub.chainCode == xprv.chainCode.withUnsafeBytes { [UInt8]($0) }, "\(name)")
      }
    }
  }

  @Test func eachChildNamesItsParentsFingerprintAndIndex() throws {
    for vector in vectors {
      for (parent, child) in zip(vector.chains, vector.chains.dropFirst()) {
        let parentKey = try ExtendedPrivateKey(serialized: parent.xprv)
        let childKey = try ExtendedPrivateKey(serialized: child.xprv)
        let last = try #require(DerivationPath(child.path).components.last)
        #expect(childKey.parentFingerprint == parentKey.fingerprint, "\(vector.id) \(child.path)")
        #expect(childKey.childNumber == last.rawIndex, "\(vector.id) \(child.path)")
        #expect(xprvText(try parentKey.child(last)) == child.xprv, "\(vector.id) \(child.path)")
      }
    }
  }

  /// For every pair of nodes whose paths differ by non-hardened steps only, the xpub derived
  /// publicly from the ancestor's xpub is the descendant's xpub.
  @Test func publicDerivationMatchesPrivateDerivation() throws {
    var checked = 0
    for vector in vectors {
      for ancestor in vector.chains {
        let ancestorPath = try DerivationPath(ancestor.path)
        let xpub = try ExtendedPublicKey(serialized: ancestor.xpub)
        for descendant in vector.chains {
          let steps = try DerivationPath(descendant.path).components
          guard steps.count > ancestorPath.components.count,
            Array(steps.prefix(ancestorPath.components.count)) == ancestorPath.components
          else { continue }
          let relative = DerivationPath(
            components: Array(steps.dropFirst(ancestorPath.components.count)))
          if relative.components.contains(where: \.isHardened) {
            let position = relative.components.firstIndex(where: \.isHardened)! + 1
            #expect(
              throws: KeyDerivationError.hardenedFromPublicKey(position: position, path: relative)
            ) {
              try xpub.derive(relative)
            }
          } else {
            #expect(
              try xpub.derive(relative).serialized == descendant.xpub,
              "\(ancestor.path) → \(descendant.path)")
            checked += 1
          }
        }
      }
    }
    // tv1: m/0' → m/0'/1; m/0'/1/2' → /2, /2/1000000000; m/0'/1/2'/2 → /1000000000. tv2: m → m/0, …
    #expect(checked == 7)
  }

  @Test func publicDerivationRejectsHardenedSteps() throws {
    let xpub = try ExtendedPublicKey(serialized: vectors[0].chains[0].xpub)
    let path = try DerivationPath("m/0/1'/2")
    let error = #expect(throws: KeyDerivationError.hardenedFromPublicKey(position: 2, path: path)) {
      try xpub.derive(path)
    }
    #expect(
      error?.description
        == "segment 2 ('1'') of m/0/1'/2 is hardened: an extended public key derives non-hardened "
        + "children only — derive it from the extended private key")
  }

  @Test func vectorFiveRejectsEveryInvalidKey() throws {
    // For each key: the error of the parser its version names, then of the other parser.
    let expected: [String: (own: KeyDerivationError, other: KeyDerivationError)] = [
      "bip32-tv5-01": (.privateKeyDataInPublicKey, .expectedPrivateKey),
      "bip32-tv5-02": (.publicKeyDataInPrivateKey, .expectedPublicKey),
      "bip32-tv5-03": (.invalidPublicKeyPrefix(0x04), .expectedPrivateKey),
      "bip32-tv5-04": (.invalidPrivateKeyPrefix(0x04), .expectedPublicKey),
      "bip32-tv5-05": (.invalidPublicKeyPrefix(0x01), .expectedPrivateKey),
      "bip32-tv5-06": (.invalidPrivateKeyPrefix(0x01), .expectedPublicKey),
      "bip32-tv5-07": (.zeroDepthWithParentFingerprint, .zeroDepthWithParentFingerprint),
      "bip32-tv5-08": (.zeroDepthWithParentFingerprint, .zeroDepthWithParentFingerprint),
      "bip32-tv5-09": (.zeroDepthWithChildNumber, .zeroDepthWithChildNumber),
      "bip32-tv5-10": (.zeroDepthWithChildNumber, .zeroDepthWithChildNumber),
      "bip32-tv5-11": (.unknownVersion(0x0101_0101), .unknownVersion(0x0101_0101)),
      "bip32-tv5-12": (.unknownVersion(0x0101_0101), .unknownVersion(0x0101_0101)),
      "bip32-tv5-13": (.invalidPrivateKey, .expectedPublicKey),
      "bip32-tv5-14": (.invalidPrivateKey, .expectedPublicKey),
      "bip32-tv5-15": (.invalidPublicKey, .expectedPrivateKey),
      "bip32-tv5-16": (.checksumMismatch, .checksumMismatch),
    ]
    let invalid = try BIP32InvalidKeys.load()
    #expect(Set(invalid.map(\.id)) == Set(expected.keys))
    for key in invalid {
      let errors = try #require(expected[key.id])
      let isPublic = key.key.hasPrefix("xpub")
      let (publicError, privateError) =
        isPublic ? (errors.own, errors.other) : (errors.other, errors.own)
      #expect(throws: publicError, "\(key.id): \(key.reason)") {
        try ExtendedPublicKey(serialized: key.key)
      }
      #expect(throws: privateError, "\(key.id): \(key.reason)") {
        try ExtendedPrivateKey(serialized: key.key)
      }
    }
  }

  @Test func rejectsTextThatIsNotAnExtendedKey() throws {
    let xprv = vectors[0].chains[0].xprv
    var chars = Array(xprv)
    chars[10] = "0"
    #expect(throws: KeyDerivationError.invalidCharacter(position: 11)) {
      try ExtendedPrivateKey(serialized: String(chars))
    }
    #expect(throws: KeyDerivationError.invalidCharacter(position: 1)) {
      try ExtendedPublicKey(serialized: " " + vectors[0].chains[0].xpub)
    }
    #expect(throws: KeyDerivationError.checksumMismatch) {
      try ExtendedPrivateKey(serialized: String(xprv.dropLast()))
    }
    #expect(throws: KeyDerivationError.invalidLength(0)) { try ExtendedPrivateKey(serialized: "") }
    #expect(throws: KeyDerivationError.textTooLong(characters: 222)) {
      try ExtendedPrivateKey(serialized: xprv + xprv)
    }
    // A valid checksum around a payload one byte short, or one byte long (which no longer fits
    // in 112 characters).
    let payload = try #require(Base58.decodeCheck(xprv))
    #expect(throws: KeyDerivationError.invalidLength(77)) {
      try ExtendedPrivateKey(serialized: Base58.encodeCheck(Array(payload.dropLast())))
    }
    #expect(throws: KeyDerivationError.invalidLength(77)) {
      try ExtendedPublicKey(serialized: Base58.encodeCheck(Array(payload.dropFirst())))
    }
    #expect(throws: KeyDerivationError.textTooLong(characters: 113)) {
      try ExtendedPublicKey(serialized: Base58.encodeCheck(payload + [0]))
    }
  }

  @Test func testnetKeysRoundTrip() throws {
    // Computed with bip_utils (Bip32Slip10Secp256k1, tprv/tpub versions) from test vector 1's seed.
    let master = try ExtendedPrivateKey(
      seed: SecureBytes([UInt8](hex: vectors[0].seed)), network: .testnet)
    let tprv =
      "tprv8ZgxMBicQKsPeDgjzdC36fs6bMjGApWDNLR9erAXMs5skhMv36j9MV5ecvfavji5khqjWaWSFhN3YcCUUdiKH6isR4Pwy3U5y5egddBr16m"
    let tpub =
      "tpubD6NzVbkrYhZ4XgiXtGrdW5XDAPFCL9h7we1vwNCpn8tGbBcgfVYjXyhWo4E1xkh56hjod1RhGjxbaTLV3X4FyWuejifB9jusQ46QzG87VKp"
    #expect(xprvText(master) == tprv)
    #expect(master.extendedPublicKey.serialized == tpub)
    let child = try master.derive(DerivationPath("m/0'/1"))
    let childTprv =
      "tprv8e8VYgZxtHsSdGrtvdxYaSrryZGiYviWzGWtDDKTGh5NMXAEB8gYSCLHpFCywNs5uqV7ghRjimALQJkRFZnUrLHpzi2pGkwqLtbubgWuQ8q"
    let childTpub =
      "tpubDApXh6cD2fZ7WjtgpHd8yrWyYaneiFuRZa7fVjMkgxsmC1QzoXW8cgx9zQFJ81Jx4deRGfRE7yXA9A3STsxXj4CKEZJHYgpMYikkas9DBTP"
    #expect(xprvText(child) == childTprv)
    #expect(child.extendedPublicKey.serialized == childTpub)
    let parsed = try ExtendedPrivateKey(serialized: childTprv)
    #expect(parsed.network == .testnet)
    #expect(xprvText(parsed) == childTprv)
    let parsedPublic = try ExtendedPublicKey(serialized: tpub)
    #expect(parsedPublic.network == .testnet)
    #expect(try parsedPublic.derive(DerivationPath("m/0")).network == .testnet)
    #expect(throws: KeyDerivationError.expectedPublicKey) {
      try ExtendedPublicKey(serialized: tprv)
    }
  }

  @Test func seedLengthMustBeSixteenToSixtyFourBytes() throws {
    for count in [0, 15, 65, 128] {
      #expect(throws: KeyDerivationError.invalidSeedLength(count)) {
        try ExtendedPrivateKey(seed: SecureBytes([UInt8](repeating: 1, count: count)))
      }
    }
    for count in [16, 32, 64] {
      #expect(
        try ExtendedPrivateKey(seed: SecureBytes([UInt8](repeating: 1, count: count))).depth == 0)
    }
  }

  @Test func depthStopsAt255() throws {
    let master = try ExtendedPrivateKey(seed: SecureBytes([UInt8](hex: vectors[0].seed)))
    let zero = try DerivationPath.Component(index: 0, hardened: false)
    let deepest = try master.derive(DerivationPath(components: Array(repeating: zero, count: 255)))
    #expect(deepest.depth == 255)
    #expect(throws: KeyDerivationError.depthExceeded) { try deepest.child(zero) }
    #expect(throws: KeyDerivationError.depthExceeded) {
      try master.derive(DerivationPath(components: Array(repeating: zero, count: 256)))
    }
    #expect(throws: KeyDerivationError.depthExceeded) { try deepest.extendedPublicKey.child(zero) }
    // The xpub at depth 255 still serializes and parses back.
    let xpub = deepest.extendedPublicKey.serialized
    #expect(try ExtendedPublicKey(serialized: xpub).depth == 255)
  }

  @Test func derivingTheEmptyPathReturnsTheSameKey() throws {
    let key = try ExtendedPrivateKey(serialized: vectors[0].chains[2].xprv)
    #expect(xprvText(try key.derive(DerivationPath("m"))) == vectors[0].chains[2].xprv)
    let xpub = try ExtendedPublicKey(serialized: vectors[0].chains[2].xpub)
    #expect(try xpub.derive(DerivationPath("m")) == xpub)
  }

  @Test func descriptionsRevealNoSecret() throws {
    let key = try ExtendedPrivateKey(serialized: vectors[0].chains[2].xprv)
    #expect(key.description == "ExtendedPrivateKey(depth: 2, child: 1, redacted)")
    #expect(!"\(key)".contains(key.privateKey.rawRepresentation.revealHex()))
    #expect(!String(reflecting: key).contains(key.chainCode.revealHex()))
    for error in [
      KeyDerivationError.invalidChild(try .init(index: 7, hardened: true)), .invalidPrivateKey,
    ] {
      #expect(!error.description.isEmpty)
    }
    #expect(
      KeyDerivationError.invalidChild(try .init(index: 7, hardened: true)).description
        == "child 7' gives an invalid key (probability below 2^-127): BIP-32 says to use the next index"
    )
  }
}

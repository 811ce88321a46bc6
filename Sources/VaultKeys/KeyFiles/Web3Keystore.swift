import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A Web3 Secret Storage (version 3) key file: a secp256k1 private key encrypted with AES-128-CTR
/// under a scrypt or PBKDF2 key, as geth, bee (`swarm.key`) and swarm-cli use.
///
/// `encrypt` writes exactly bee's layout. `init(json:)` reads any v3 file: scrypt or PBKDF2
/// (HMAC-SHA256), `crypto` or `Crypto`, version `3` or `"3"`, unknown fields ignored.
public struct Web3Keystore: Sendable {
  /// The key derivation function and its parameters.
  public enum KDF: Sendable, Equatable {
    /// scrypt with cost `n` (a power of two), block size `r` and parallelism `p`.
    case scrypt(n: UInt64, r: UInt32, p: UInt32)
    /// PBKDF2-HMAC-SHA256 with `iterations` rounds.
    case pbkdf2(iterations: Int)

    /// A rough duration of the key derivation from its parameters alone, so a caller can say
    /// so before one that takes longer than a second.
    public var estimatedSeconds: Double {
      switch self {
      case .scrypt(let n, let r, let p): Scrypt.estimatedSeconds(n: n, r: r, p: p)
      case .pbkdf2(let iterations): PBKDF2.estimatedSeconds(sha256Iterations: iterations)
      }
    }

    /// The memory one derivation takes where it is large (scrypt: `Scrypt.memoryByteCount`);
    /// nil for PBKDF2, whose memory is a few hundred bytes.
    public var memoryByteCount: UInt64? {
      switch self {
      case .scrypt(let n, let r, let p): Scrypt.memoryByteCount(n: n, r: r, p: p) ?? .max
      case .pbkdf2: nil
      }
    }

    /// The name used in the file's `kdf` field.
    public var name: String {
      switch self {
      case .scrypt: "scrypt"
      case .pbkdf2: "pbkdf2"
      }
    }
  }

  /// Byte length of the derived key (`dklen`); the only length in use.
  public static let derivedKeyByteCount = 32
  /// Byte length of the scrypt salt bee writes.
  public static let saltByteCount = 32
  /// Byte length of the AES-CTR IV.
  public static let ivByteCount = 16
  /// bee's scrypt cost, `n = 2^15`.
  public static let beeScryptN: UInt64 = 32768

  /// Largest scrypt `n` accepted when reading: 2^22.
  public static let maximumScryptN: UInt64 = 1 << 22
  /// Largest scrypt memory accepted, for writing and reading: `Scrypt.maximumMemoryByteCount`
  /// (2 GiB), counted as libsodium allocates it, 128·r·(n + p + 2) bytes.
  public static let maximumScryptMemory: UInt64 = Scrypt.maximumMemoryByteCount
  /// bee's scrypt block size and parallelism, which `encrypt` writes.
  public static let beeScryptR: UInt32 = 8
  public static let beeScryptP: UInt32 = 1
  /// Largest `n` `encrypt` writes: the largest power of two whose memory with bee's `r` and
  /// `p` is within `maximumScryptMemory` (2^20), so every file written here is read here too.
  public static let maximumBeeScryptN: UInt64 = {
    var n: UInt64 = 2
    while let memory = Scrypt.memoryByteCount(n: 2 * n, r: beeScryptR, p: beeScryptP),
      memory <= maximumScryptMemory, 2 * n <= maximumScryptN
    {
      n *= 2
    }
    return n
  }()
  /// Largest scrypt work factor n·r·p accepted: 2^25, sixteen times geth's standard
  /// (n = 2^18, r = 8, p = 1), so a hostile file cannot keep the CPU busy for hours.
  public static let maximumScryptWork: UInt64 = 1 << 25
  /// Largest PBKDF2 iteration count accepted (geth writes 262144).
  public static let maximumPBKDF2Iterations = 10_000_000

  /// The address the file states, if it has one; bee's and geth's files do.
  public let address: EthereumAddress?
  /// The file's `id`, if present.
  public let id: String?
  /// The key derivation function and its parameters.
  public let kdf: KDF
  /// The KDF salt.
  public let salt: [UInt8]
  /// The AES-128-CTR IV.
  public let iv: [UInt8]
  /// The encrypted private key.
  public let ciphertext: [UInt8]
  /// The stored MAC.
  public let mac: [UInt8]
  /// Whether `version` is the number 3 (geth, bee, antd) rather than the string "3" (which
  /// bee reads and antd refuses).
  public internal(set) var versionIsNumber = true
  /// The fields whose name in the file differs from the standard one in case only (Go's
  /// readers, bee's and geth's, match names ignoring case; serde readers such as antd's do
  /// not): each standard dotted path (`crypto.kdfparams.n`) → the name as written (`N`).
  public internal(set) var namesWrittenOtherwise: [String: String] = [:]

  /// The two MACs a v3 file is found with.
  public enum MACAlgorithm: Sendable, Equatable {
    /// Keccak-256, the standard (geth, bee, antd).
    case keccak256
    /// SHA3-256, bee's files before 2022: bee reads it, antd refuses it.
    case sha3
  }

  /// The name of the key derivation function (`scrypt` or `pbkdf2`).
  public var kdfName: String { kdf.name }

  // MARK: Writing

  /// The key file bee writes for `privateKey`: compact JSON, fields in bee's order, scrypt with
  /// `n = scryptN`, `r = 8`, `p = 1`, random salt, IV and version-4 UUID, Keccak-256 MAC.
  public static func encrypt(
    privateKey: Secp256k1.PrivateKey, password: SecureBytes, scryptN: UInt64 = beeScryptN
  ) throws(Web3KeystoreError) -> [UInt8] {
    guard scryptN >= 2, scryptN & (scryptN - 1) == 0, scryptN <= maximumBeeScryptN else {
      throw .kdfParametersRefused(
        "scrypt n must be a power of two between 2 and \(maximumBeeScryptN), got \(scryptN)")
    }
    let r = beeScryptR
    let p = beeScryptP
    let salt = SecureRandom.bytes(count: saltByteCount)
    let iv = SecureRandom.bytes(count: ivByteCount)
    let derivedKey: SecureBytes
    do {
      derivedKey = try Scrypt.deriveKey(
        password: password, salt: salt, n: scryptN, r: r, p: p, keyByteCount: derivedKeyByteCount)
    } catch {
      throw .kdfFailed(error.description)
    }
    let ciphertext: [UInt8]
    do {
      ciphertext = try AES.ctr128(
        key: derivedKey[0..<16], iv: iv, data: privateKey.rawRepresentation
      )
      .withUnsafeBytes { Array($0) }
    } catch {
      throw .kdfFailed(error.description)
    }
    let mac = keccakMAC(derivedKey: derivedKey, ciphertext: ciphertext)
    let address = EthereumAddress(publicKey: privateKey.publicKey)

    let kdfParams: JSONObject = [
      "n": .number(scryptN), "r": .number(UInt64(r)), "p": .number(UInt64(p)),
      "dklen": .number(UInt64(derivedKeyByteCount)), "salt": .string(Hex.encode(salt)),
    ]
    let crypto: JSONObject = [
      "cipher": .string("aes-128-ctr"), "ciphertext": .string(Hex.encode(ciphertext)),
      "cipherparams": .object(["iv": .string(Hex.encode(iv))]), "kdf": .string("scrypt"),
      "kdfparams": .object(kdfParams), "mac": .string(Hex.encode(mac)),
    ]
    let file: JSONValue = .object([
      "address": .string(address.lowercaseHex), "crypto": .object(crypto), "version": .number(3),
      "id": .string(UUID().uuidString.lowercased()),
    ])
    let json = file.compact
    return Array(json.utf8)
  }

  // MARK: Reading

  /// Parses a v3 key file without decrypting it; the parameters are checked against the limits
  /// above so `decrypt` cannot be made to exhaust memory.
  public init(json: some ContiguousBytes) throws(Web3KeystoreError) {
    let parsed: Result<Web3Keystore, Web3KeystoreError> = json.withUnsafeBytes { bytes in
      do throws(Web3KeystoreError) {
        return .success(try Reader(bytes: bytes).keystore())
      } catch {
        return .failure(error)
      }
    }
    self = try parsed.get()
  }

  init(
    address: EthereumAddress?, id: String?, kdf: KDF, salt: [UInt8], iv: [UInt8],
    ciphertext: [UInt8],
    mac: [UInt8]
  ) {
    self.address = address
    self.id = id
    self.kdf = kdf
    self.salt = salt
    self.iv = iv
    self.ciphertext = ciphertext
    self.mac = mac
  }

  /// The private key, after checking the MAC as Keccak-256 (the standard) or SHA3-256 (bee's
  /// files from before 2022, which bee still reads). Throws `wrongPassword` when neither matches.
  public func decrypt(password: SecureBytes) throws(Web3KeystoreError) -> Secp256k1.PrivateKey {
    try decryptReportingMAC(password: password).key
  }

  /// `decrypt`, and which of the two MACs the file was written with.
  public func decryptReportingMAC(password: SecureBytes) throws(Web3KeystoreError) -> (
    key: Secp256k1.PrivateKey, mac: MACAlgorithm
  ) {
    let derivedKey: SecureBytes
    switch kdf {
    case .scrypt(let n, let r, let p):
      do {
        derivedKey = try Scrypt.deriveKey(
          password: password, salt: salt, n: n, r: r, p: p, keyByteCount: Self.derivedKeyByteCount)
      } catch {
        throw .kdfFailed("scrypt could not run with n=\(n), r=\(r), p=\(p) (not enough memory?)")
      }
    case .pbkdf2(let iterations):
      derivedKey = PBKDF2.hmacSHA256(
        password: password, salt: salt, iterations: iterations,
        keyByteCount: Self.derivedKeyByteCount)
    }
    let stored = SecureBytes(mac)
    let keccak = SecureBytes(Self.keccakMAC(derivedKey: derivedKey, ciphertext: ciphertext))
    let sha3 = SecureBytes(Self.sha3MAC(derivedKey: derivedKey, ciphertext: ciphertext))
    // Both are computed and compared in constant time; a MAC is not secret, but this costs nothing.
    let keccakMatches = keccak == stored
    let sha3Matches = sha3 == stored
    guard keccakMatches || sha3Matches else { throw .wrongPassword }

    let privateKey: Secp256k1.PrivateKey
    do {
      let plain = try AES.ctr128(key: derivedKey[0..<16], iv: iv, data: ciphertext)
      privateKey = try Secp256k1.PrivateKey(rawRepresentation: plain)
    } catch {
      throw .invalidPrivateKey
    }
    if let address {
      let actual = EthereumAddress(publicKey: privateKey.publicKey)
      guard actual == address else {
        throw .addressMismatch(stored: address.lowercaseHex, actual: actual.lowercaseHex)
      }
    }
    return (privateKey, keccakMatches ? .keccak256 : .sha3)
  }

  /// Whether `derivedKey`, the KDF's 32 bytes for a password, gives the stored MAC: as
  /// Keccak-256 (geth, bee, antd) or SHA3-256 (bee's files before 2022), as `decrypt` checks it.
  package func macMatches(derivedKey: SecureBytes) -> Bool {
    guard derivedKey.count == Self.derivedKeyByteCount else { return false }
    let stored = SecureBytes(mac)
    return SecureBytes(Self.keccakMAC(derivedKey: derivedKey, ciphertext: ciphertext)) == stored
      || SecureBytes(Self.sha3MAC(derivedKey: derivedKey, ciphertext: ciphertext)) == stored
  }

  /// Keccak-256(dk[16..<32] ‖ ciphertext).
  static func keccakMAC(derivedKey: SecureBytes, ciphertext: [UInt8]) -> [UInt8] {
    derivedKey.withUnsafeBytes { Keccak256.hash($0[16..<32] + ciphertext) }
  }

  /// SHA3-256(dk[16..<32] ‖ ciphertext), bee's MAC before 2022.
  static func sha3MAC(derivedKey: SecureBytes, ciphertext: [UInt8]) -> [UInt8] {
    let input = derivedKey[16..<32] + SecureBytes(ciphertext)
    return SHA3_256.hash(input)
  }
}

/// Reads a v3 key file's fields from its JSON positions.
private final class Reader {
  let bytes: UnsafeRawBufferPointer
  /// See `Web3Keystore.namesWrittenOtherwise`.
  private var namesWrittenOtherwise: [String: String] = [:]

  init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  func keystore() throws(Web3KeystoreError) -> Web3Keystore {
    let root: JSONNode
    do {
      root = try JSONText.parse(bytes)
    } catch {
      throw .invalidJSON(error.description)
    }
    guard case .object = root.kind else {
      throw .wrongType(field: "(top level)", expected: "an object")
    }

    let version = try required("version", in: root, path: "")
    var versionIsNumber = false
    if case .number = version.kind { versionIsNumber = true }
    switch version.kind {
    case .number:
      guard JSONText.unsignedInteger(version, in: bytes) == 3 else {
        throw .unsupportedVersion(JSONText.text(version, in: bytes))
      }
    case .string:
      let text = JSONText.string(version, in: bytes)
      guard text == "3" else { throw .unsupportedVersion(printable(text)) }
    default: throw .wrongType(field: "version", expected: "the number 3")
    }

    let crypto = try required("crypto", in: root, path: "")
    guard case .object = crypto.kind else {
      throw .wrongType(field: "crypto", expected: "an object")
    }
    let cipher = try string("cipher", in: crypto, path: "crypto.")
    guard cipher == "aes-128-ctr" else { throw .unsupportedCipher(printable(cipher)) }
    let cipherParams = try required("cipherparams", in: crypto, path: "crypto.")
    let iv = try hex(
      "iv", in: cipherParams, path: "crypto.cipherparams.", count: Web3Keystore.ivByteCount)
    let ciphertext = try hex(
      "ciphertext", in: crypto, path: "crypto.", count: Secp256k1.PrivateKey.byteCount)
    let mac = try hex("mac", in: crypto, path: "crypto.", count: Keccak256.byteCount)

    let kdfName = try string("kdf", in: crypto, path: "crypto.")
    let params = try required("kdfparams", in: crypto, path: "crypto.")
    guard case .object = params.kind else {
      throw .wrongType(field: "crypto.kdfparams", expected: "an object")
    }
    let paramPath = "crypto.kdfparams."
    let salt = try hex("salt", in: params, path: paramPath, count: nil)
    let dklen = try integer("dklen", in: params, path: paramPath)
    guard dklen == UInt64(Web3Keystore.derivedKeyByteCount) else {
      throw .kdfParametersRefused("dklen must be 32, got \(dklen)")
    }
    let kdf: Web3Keystore.KDF
    switch kdfName {
    case "scrypt":
      let n = try integer("n", in: params, path: paramPath)
      let r = try integer("r", in: params, path: paramPath)
      let p = try integer("p", in: params, path: paramPath)
      try checkScrypt(n: n, r: r, p: p)
      kdf = .scrypt(n: n, r: UInt32(r), p: UInt32(p))
    case "pbkdf2":
      let prf = try string("prf", in: params, path: paramPath)
      guard prf == "hmac-sha256" else { throw .unsupportedPRF(printable(prf)) }
      let c = try integer("c", in: params, path: paramPath)
      guard c >= 1, c <= UInt64(Web3Keystore.maximumPBKDF2Iterations) else {
        throw .kdfParametersRefused(
          "pbkdf2 iterations c=\(c) outside 1…\(Web3Keystore.maximumPBKDF2Iterations)")
      }
      kdf = .pbkdf2(iterations: Int(c))
    default: throw .unsupportedKDF(printable(kdfName))
    }

    var address: EthereumAddress?
    if let node = try optional("address", in: root, path: "") {
      guard JSONText.isString(node) else {
        throw .wrongType(field: "address", expected: "a string")
      }
      // Plain hex, as geth reads it: a mixed-case address is not held to EIP-55 here.
      let bytes = try hex("address", in: root, path: "", count: EthereumAddress.byteCount)
      address = try? EthereumAddress(rawRepresentation: bytes)
    }
    var id: String?
    if let node = try optional("id", in: root, path: ""), JSONText.isString(node) {
      id = JSONText.string(node, in: bytes)
    }
    var keystore = Web3Keystore(
      address: address, id: id, kdf: kdf, salt: salt, iv: iv, ciphertext: ciphertext, mac: mac)
    keystore.versionIsNumber = versionIsNumber
    keystore.namesWrittenOtherwise = namesWrittenOtherwise
    return keystore
  }

  private func checkScrypt(n: UInt64, r: UInt64, p: UInt64) throws(Web3KeystoreError) {
    guard n >= 2, n & (n - 1) == 0 else {
      throw .kdfParametersRefused("scrypt n must be a power of two of at least 2, got \(n)")
    }
    guard n <= Web3Keystore.maximumScryptN else {
      throw .kdfParametersRefused("scrypt n=\(n) is above the limit 2^22 (4194304)")
    }
    guard r >= 1, p >= 1, r < 1 << 30, p < 1 << 30, r * p < 1 << 30 else {
      throw .kdfParametersRefused("scrypt needs r ≥ 1, p ≥ 1 and r·p < 2^30; got r=\(r), p=\(p)")
    }
    // r, p < 2^30 and n ≤ 2^22: the count cannot overflow.
    let memory = Scrypt.memoryByteCount(n: n, r: UInt32(r), p: UInt32(p)) ?? .max
    guard memory <= Web3Keystore.maximumScryptMemory else {
      throw .kdfParametersRefused(
        "scrypt n=\(n), r=\(r), p=\(p) needs \(memory >> 20) MiB of memory; the limit is \(Web3Keystore.maximumScryptMemory >> 20) MiB"
      )
    }
    let (work, overflow) = (n * r).multipliedReportingOverflow(by: p)
    guard !overflow, work <= Web3Keystore.maximumScryptWork else {
      throw .kdfParametersRefused(
        "scrypt n=\(n), r=\(r), p=\(p) costs more than 16 times geth's standard n=2^18, r=8, p=1")
    }
  }

  /// The single member named `name` (ignoring case); nil if absent.
  private func optional(_ name: String, in object: JSONNode, path: String) throws(Web3KeystoreError)
    -> JSONNode?
  {
    let found = object.members(named: name)
    guard found.count <= 1 else { throw .duplicateField(path + name) }
    if let member = found.first, member.name != name {
      namesWrittenOtherwise[path + name] = member.name
    }
    return found.first?.value
  }

  private func required(_ name: String, in object: JSONNode, path: String) throws(Web3KeystoreError)
    -> JSONNode
  {
    guard let node = try optional(name, in: object, path: path) else {
      throw .missingField(path + name)
    }
    return node
  }

  private func string(_ name: String, in object: JSONNode, path: String) throws(Web3KeystoreError)
    -> String
  {
    let node = try required(name, in: object, path: path)
    guard JSONText.isString(node) else {
      throw .wrongType(field: path + name, expected: "a string")
    }
    return JSONText.string(node, in: bytes)
  }

  private func integer(_ name: String, in object: JSONNode, path: String) throws(Web3KeystoreError)
    -> UInt64
  {
    let node = try required(name, in: object, path: path)
    guard let value = JSONText.unsignedInteger(node, in: bytes) else {
      throw .wrongType(field: path + name, expected: "a non-negative integer")
    }
    return value
  }

  private func hex(_ name: String, in object: JSONNode, path: String, count: Int?)
    throws(Web3KeystoreError) -> [UInt8]
  {
    let text = try string(name, in: object, path: path)
    guard let value = Hex.decode(text) else { throw .invalidHex(field: path + name) }
    if let count, value.count != count {
      throw .invalidLength(field: path + name, expected: count, actual: value.count)
    }
    return value
  }

  /// A file-supplied name, shortened and stripped of control characters for a one-line message.
  private func printable(_ text: String) -> String {
    let cleaned = String(
      text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(40))
    return cleaned.count < text.count ? cleaned + "…" : cleaned
  }
}

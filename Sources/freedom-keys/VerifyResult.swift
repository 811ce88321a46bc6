import CryptoPrimitives
import NodeFiles
import VaultKeys

/// What `verify` found for one node: whether its stored identity is the mnemonic's.
struct VerifyResult {
  enum Status: String {
    case match, mismatch, absent
  }

  /// `bee`, `kubo`, `radicle`, `ant`: the key of the JSON output.
  let node: String
  let status: Status
  /// The identity the mnemonic gives (an address, PeerID or DID).
  let expected: String
  /// The identity stored, when there is one.
  let found: String?
  /// The file that was checked (or was missing).
  let path: String
  /// For bee: whether the key was decrypted (true) or only the address field compared.
  var authenticated: Bool?
  /// For Ant: what Ant would refuse or do differently (a 0x prefix, a nonce, a libp2p key).
  var problems: [String] = []

  /// The text after the node's name.
  var line: String {
    switch status {
    case .match:
      let how =
        switch authenticated {
        case true?: " (decrypted with the password)"
        case false?: " (address field only, unauthenticated; --password-file decrypts the key)"
        case nil: ""
        }
      return "match     \(expected)\(how)"
    case .mismatch:
      let how = authenticated == false ? " (address field only, unauthenticated)" : ""
      return "MISMATCH  expected \(expected), found \(found ?? "nothing")\(how)"
    case .absent:
      return "not present (\(path))"
    }
  }

  var json: JSONObject {
    var object: JSONObject = ["status": .string(status.rawValue), "expected": .string(expected)]
    if let found { object.append("found", .string(found)) }
    object.append("path", .string(path))
    if let authenticated { object.append("authenticated", .bool(authenticated)) }
    if !problems.isEmpty { object.append("problems", .array(problems.map { .string($0) })) }
    return object
  }

  private static func result(
    _ node: String, matches: Bool, expected: String, found: String, path: String
  ) -> VerifyResult {
    VerifyResult(
      node: node, status: matches ? .match : .mismatch, expected: expected, found: found,
      path: path)
  }

  private static func absent(_ node: String, expected: String, path: String) -> VerifyResult {
    VerifyResult(node: node, status: .absent, expected: expected, found: nil, path: path)
  }

  /// The file's content, or an error naming it: `verify` does not judge files it cannot read.
  private static func understood<Value>(_ stored: StoredFile<Value>) throws(CLIError) -> Value? {
    switch stored {
    case .absent: return nil
    case .present(let value): return value
    case .unreadable(let problem): throw .failure(problem.description)
    }
  }

  // MARK: - The nodes

  /// bee: `keys/swarm.key` decrypted with `password`, or its address field without one.
  static func bee(_ directory: String, password: SecureBytes?, profile: FreedomProfile) throws
    -> VerifyResult
  {
    try ExportFiles.requireDirectory(directory)
    let path = ExportFiles.join(directory, "keys/swarm.key")
    let expected = profile.swarm.address
    let stored = try StoredFile.read(path) {
      try Web3Keystore(json: $0.withUnsafeBytes { Array($0) })
    }
    guard let keystore = try understood(stored) else {
      return absent("bee", expected: expected.checksummed, path: path)
    }
    guard let password else {
      guard let address = keystore.address else {
        throw CLIError.failure(
          "\(path) has no address field; give --password-file to decrypt and check the key")
      }
      var result = Self.result(
        "bee", matches: address == expected, expected: expected.checksummed,
        found: address.checksummed, path: path)
      result.authenticated = false
      return result
    }
    let key: Secp256k1.PrivateKey
    do {
      KDFNotice.announce("decrypting \(path)", keystore.kdf)
      key = try keystore.decrypt(password: password)
    } catch .wrongPassword {
      throw CLIError.failure("wrong password for \(path): its MAC does not match")
    } catch {
      throw CLIError.failure("\(path): \(error)")
    }
    let found = EthereumAddress(publicKey: key.publicKey)
    var result = Self.result(
      "bee", matches: key.rawRepresentation == profile.swarm.privateKey.rawRepresentation,
      expected: expected.checksummed, found: found.checksummed, path: path)
    result.authenticated = true
    return result
  }

  /// kubo: `Identity.PeerID` and `Identity.PrivKey` of `config`.
  static func kubo(_ repository: String, profile: FreedomProfile) throws -> VerifyResult {
    try ExportFiles.requireDirectory(repository)
    let path = ExportFiles.join(repository, "config")
    let expected = profile.ipfs.peerID.base58
    let stored = try StoredFile.read(path) { try KuboConfig(json: $0) }
    guard let config = try understood(stored), config.peerID != nil || config.privateKey != nil
    else { return absent("kubo", expected: expected, path: path) }
    let storedKey = config.privateKey.flatMap { try? Libp2pPrivateKey.decode(base64: $0) }
    let keyMatches =
      storedKey?.rawRepresentation == profile.ipfs.privateKey.rawRepresentation
    let peerID = config.peerID ?? "no PeerID"
    let found: String
    switch storedKey {
    case nil where config.privateKey == nil: found = "\(peerID) without PrivKey"
    case nil: found = "\(peerID) with an unreadable PrivKey"
    case let key? where !keyMatches && config.peerID == expected:
      found = "\(peerID) with the PrivKey of \(Libp2pPeerID(publicKey: key.publicKey).base58)"
    default: found = peerID
    }
    return result(
      "kubo", matches: keyMatches && config.peerID == expected, expected: expected, found: found,
      path: path)
  }

  /// Radicle: the private key file and the public key line must both hold the key.
  static func radicle(_ home: String, profile: FreedomProfile) throws -> VerifyResult {
    try ExportFiles.requireDirectory(home)
    let keyPath = ExportFiles.join(home, "keys/radicle")
    let linePath = ExportFiles.join(home, "keys/radicle.pub")
    let expected = profile.radicle.radicle.did
    let key = try understood(
      StoredFile.read(keyPath) { try OpenSSHEd25519PrivateKey.parse(pem: $0).0.publicKey })
    let line = try understood(
      StoredFile.read(linePath) { try ExportRadicleCommand.publicKey(inLine: $0) })
    let did = { (key: Ed25519.PublicKey?) in key.map { RadicleIdentity(publicKey: $0).did } }
    switch (did(key), did(line)) {
    case (nil, nil):
      return absent("radicle", expected: expected, path: keyPath)
    case (let keyDID?, let lineDID?) where keyDID == lineDID:
      return result(
        "radicle", matches: keyDID == expected, expected: expected, found: keyDID, path: keyPath)
    case (let keyDID, let lineDID):
      let found =
        "\(keyDID ?? "no key") in keys/radicle, \(lineDID ?? "no key") in keys/radicle.pub"
      return result("radicle", matches: false, expected: expected, found: found, path: keyPath)
    }
  }

  /// Ant: `signing_key` of `identity.json`, and whatever would make Ant refuse the file or run
  /// with another overlay or PeerID than the mnemonic's (see `AntIdentityFile`).
  static func ant(_ directory: String, profile: FreedomProfile) throws -> VerifyResult {
    try ExportFiles.requireDirectory(directory)
    let path = ExportFiles.join(directory, "identity.json")
    let expected = profile.swarm.address.checksummed
    guard let file = try understood(StoredFile.read(path) { try AntIdentityFile(json: $0) }) else {
      return absent("ant", expected: expected, path: path)
    }
    let found = EthereumAddress(publicKey: file.identity.signingKey.publicKey).checksummed
    let sameKey =
      file.identity.signingKey.rawRepresentation == profile.swarm.privateKey.rawRepresentation
    var result = result(
      "ant", matches: sameKey && file.problems.isEmpty, expected: expected,
      found: file.problems.isEmpty
        ? found : found + " — " + file.problems.map(\.description).joined(separator: "; "),
      path: path)
    result.problems = file.problems.map(\.description)
    return result
  }
}

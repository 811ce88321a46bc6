/// Why a Web3 Secret Storage (v3) key file could not be written, read or decrypted.
public enum Web3KeystoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not valid JSON.
  case invalidJSON(String)
  /// A required field is absent (a dotted path such as `crypto.kdfparams.salt`).
  case missingField(String)
  /// A field appears twice (ignoring case, as Go readers do), so the file is ambiguous.
  case duplicateField(String)
  /// A field has the wrong JSON type.
  case wrongType(field: String, expected: String)
  /// The `version` field is not 3.
  case unsupportedVersion(String)
  /// The cipher is not `aes-128-ctr`.
  case unsupportedCipher(String)
  /// The key derivation function is neither `scrypt` nor `pbkdf2`.
  case unsupportedKDF(String)
  /// The PBKDF2 pseudo-random function is not `hmac-sha256`.
  case unsupportedPRF(String)
  /// A field that must be hexadecimal is not.
  case invalidHex(field: String)
  /// A decoded field has the wrong byte length.
  case invalidLength(field: String, expected: Int, actual: Int)
  /// KDF parameters that are invalid, or so costly that deriving the key would exhaust memory
  /// or time; the message says which limit.
  case kdfParametersRefused(String)
  /// The key derivation failed (typically: not enough memory for scrypt).
  case kdfFailed(String)
  /// The MAC matches neither Keccak-256 nor SHA3-256: wrong password, or an altered file.
  case wrongPassword
  /// The MAC matched but the decrypted bytes are not a valid secp256k1 private key.
  case invalidPrivateKey
  /// The key decrypted, but its address differs from the `address` the file states.
  case addressMismatch(stored: String, actual: String)

  public var description: String {
    switch self {
    case .invalidJSON(let detail): "the key file is not valid JSON (\(detail))"
    case .missingField(let path): "the key file has no '\(path)' field; it is not a v3 keystore"
    case .duplicateField(let path): "the key file has '\(path)' twice; refusing an ambiguous file"
    case .wrongType(let field, let expected): "'\(field)' in the key file must be \(expected)"
    case .unsupportedVersion(let version):
      "keystore version \(version) is not supported (only version 3)"
    case .unsupportedCipher(let cipher):
      "cipher '\(cipher)' is not supported (only aes-128-ctr)"
    case .unsupportedKDF(let kdf):
      "key derivation '\(kdf)' is not supported (only scrypt and pbkdf2)"
    case .unsupportedPRF(let prf): "pbkdf2 with '\(prf)' is not supported (only hmac-sha256)"
    case .invalidHex(let field): "'\(field)' in the key file is not hexadecimal"
    case .invalidLength(let field, let expected, let actual):
      "'\(field)' in the key file must be \(expected) bytes, got \(actual)"
    case .kdfParametersRefused(let reason): "refusing the key file's KDF parameters: \(reason)"
    case .kdfFailed(let reason): "key derivation failed: \(reason)"
    case .wrongPassword: "wrong password (or the key file was altered): the MAC does not match"
    case .invalidPrivateKey:
      "the key file decrypted to bytes that are not a valid secp256k1 private key; the file is corrupt"
    case .addressMismatch(let stored, let actual):
      "the key file says address \(stored) but its key belongs to \(actual); the file is corrupt"
    }
  }
}

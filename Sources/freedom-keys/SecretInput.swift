import CryptoPrimitives

extension SecretInput {
  /// The content of `source` as `read(_:limit:warning:)` reads it, a file readable by other
  /// users named in a warning unless `warnsIfShared` is false (an encrypted file).
  static func read(
    _ source: SecretSource, limit: Int = maximumByteCount, warnsIfShared: Bool = true
  ) throws(SecretInputError) -> SecureBytes {
    let warning: ((String) -> Void)? = warnsIfShared ? { Output.warning($0) } : nil
    return try read(source, limit: limit, warning: warning)
  }
}

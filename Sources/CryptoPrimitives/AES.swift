internal import COpenSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// AES from OpenSSL libcrypto, which libsodium lacks in the modes needed here.
public enum AES {
  /// AES-128-CTR (Web3 Secret Storage's cipher). Encryption and decryption are the same
  /// operation; the output is returned as a secret because one direction yields a private key.
  public static func ctr128(key: SecureBytes, iv: some ContiguousBytes, data: some ContiguousBytes)
    throws(CryptoError) -> SecureBytes
  {
    try requireLength("an AES-128 key", key.count, 16)
    try requireLength("an AES-CTR IV", iv.withUnsafeBytes { $0.count }, 16)
    let count = data.withUnsafeBytes { $0.count }
    return try run(
      EVP_aes_128_ctr(), encrypt: true, key: key, iv: iv, input: data, outputCount: count
    ) { _ in 1 }
  }

  /// The byte length of a GCM tag.
  public static let gcmTagByteCount = 16

  /// AES-256-GCM decryption with any IV length (browser-passworder uses 16 bytes, which
  /// libsodium's 12-byte-nonce API cannot take). Throws `authenticationFailed` on a bad tag.
  public static func gcm256Open(
    key: SecureBytes, iv: some ContiguousBytes, ciphertext: some ContiguousBytes,
    tag: some ContiguousBytes
  ) throws(CryptoError) -> SecureBytes {
    try requireLength("an AES-256 key", key.count, 32)
    try requireLength("a GCM tag", tag.withUnsafeBytes { $0.count }, gcmTagByteCount)
    let count = ciphertext.withUnsafeBytes { $0.count }
    return try run(
      EVP_aes_256_gcm(), encrypt: false, key: key, iv: iv, input: ciphertext, outputCount: count
    ) {
      context in
      tag.withUnsafeBytes {
        EVP_CIPHER_CTX_ctrl(
          context, EVP_CTRL_GCM_SET_TAG, Int32($0.count),
          UnsafeMutableRawPointer(mutating: $0.baseAddress))
      }
    }
  }

  /// AES-256-GCM encryption; returns ciphertext ‖ 16-byte tag.
  public static func gcm256Seal(
    key: SecureBytes, iv: some ContiguousBytes, plaintext: some ContiguousBytes
  )
    throws(CryptoError) -> [UInt8]
  {
    try requireLength("an AES-256 key", key.count, 32)
    let count = plaintext.withUnsafeBytes { $0.count }
    var tag = [UInt8](repeating: 0, count: gcmTagByteCount)
    let sealed = try run(
      EVP_aes_256_gcm(), encrypt: true, key: key, iv: iv, input: plaintext, outputCount: count,
      configure: { _ in 1 },
      finish: { context in
        tag.withUnsafeMutableBytes {
          EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32($0.count), $0.baseAddress)
        }
      })
    return sealed.withUnsafeBytes { Array($0) } + tag
  }

  private static func run(
    _ cipher: OpaquePointer?, encrypt: Bool, key: SecureBytes, iv: some ContiguousBytes,
    input: some ContiguousBytes, outputCount: Int,
    configure: (OpaquePointer?) -> Int32,
    finish: (OpaquePointer?) -> Int32 = { _ in 1 }
  ) throws(CryptoError) -> SecureBytes {
    guard let context = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
    defer { EVP_CIPHER_CTX_free(context) }
    let enc: Int32 = encrypt ? 1 : 0
    let ivCount = iv.withUnsafeBytes { $0.count }
    guard EVP_CipherInit_ex(context, cipher, nil, nil, nil, enc) == 1 else {
      throw .libraryFailure("EVP_CipherInit_ex")
    }
    if EVP_CIPHER_get_mode(cipher) == EVP_CIPH_GCM_MODE {
      guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(ivCount), nil) == 1 else {
        throw .libraryFailure("EVP_CTRL_AEAD_SET_IVLEN")
      }
    }
    let keyed = key.withUnsafeBytes { key in
      iv.withUnsafeBytes { iv in
        EVP_CipherInit_ex(
          context, nil, nil, key.bytePointer,
          iv.bytePointer, enc)
      }
    }
    guard keyed == 1 else { throw .libraryFailure("EVP_CipherInit_ex") }
    guard configure(context) == 1 else { throw .libraryFailure("EVP_CIPHER_CTX_ctrl") }
    var status: Int32 = 1
    // Room for a final block, though CTR and GCM never emit one.
    let output = SecureBytes(count: outputCount + 16) { out in
      var written: Int32 = 0
      input.withUnsafeBytes { input in
        if input.count > 0 {
          status = EVP_CipherUpdate(
            context, out.bytePointer, &written,
            input.bytePointer, Int32(input.count))
        }
      }
      var tail: Int32 = 0
      if status == 1 {
        status = EVP_CipherFinal_ex(
          context, out.bytePointer + Int(written), &tail)
      }
    }
    guard status == 1 else {
      if !encrypt && EVP_CIPHER_get_mode(cipher) == EVP_CIPH_GCM_MODE {
        throw .authenticationFailed
      }
      throw .libraryFailure("AES")
    }
    guard finish(context) == 1 else { throw .libraryFailure("EVP_CIPHER_CTX_ctrl") }
    return output[0..<outputCount]
  }
}

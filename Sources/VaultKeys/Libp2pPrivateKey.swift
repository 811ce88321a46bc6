import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Ed25519 private keys in libp2p's protobuf form, as kubo stores them in its config
/// (`Identity.PrivKey`, base64): `PrivateKey { Type: Ed25519, Data: seed ‖ public key }`.
public enum Libp2pPrivateKey {
  /// Field 1 (`Type`) = Ed25519, field 2 (`Data`) of 64 bytes.
  static let protobufPrefix: [UInt8] = [0x08, Libp2pKeyType.ed25519, 0x12, 0x40]
  /// The length of an Ed25519 key's `Data`: the 32-byte seed followed by the public key.
  static let dataByteCount = Ed25519.PrivateKey.byteCount + Ed25519.PublicKey.byteCount
  /// The length of the whole protobuf.
  static let protobufByteCount = protobufPrefix.count + dataByteCount

  /// `08 01 12 40 ‖ seed ‖ public key`.
  public static func protobuf(_ key: Ed25519.PrivateKey) -> SecureBytes {
    SecureBytes(count: protobufByteCount) { out in
      let seedStart = protobufPrefix.count
      let publicKeyStart = seedStart + Ed25519.PrivateKey.byteCount
      out.copyBytes(from: protobufPrefix)
      key.rawRepresentation.withUnsafeBytes {
        UnsafeMutableRawBufferPointer(rebasing: out[seedStart..<publicKeyStart]).copyMemory(
          from: $0)
      }
      UnsafeMutableRawBufferPointer(rebasing: out[publicKeyStart...])
        .copyBytes(from: key.publicKey.rawRepresentation)
    }
  }

  /// The standard padded base64 text (UTF-8 bytes) of `protobuf(key)`: kubo's `Identity.PrivKey`.
  public static func base64(_ key: Ed25519.PrivateKey) -> SecureBytes {
    SecureBase64.encode(protobuf(key))
  }

  /// The key in `protobuf`, which must be an Ed25519 key whose embedded public key matches
  /// its seed.
  public static func decode(protobuf bytes: some ContiguousBytes) throws(Libp2pError)
    -> Ed25519.PrivateKey
  {
    let protobuf = bytes as? SecureBytes ?? SecureBytes(bytes)
    // The header is not secret: it only names the type and length.
    let header = protobuf.withUnsafeBytes { [UInt8]($0.prefix(protobufPrefix.count)) }
    guard header.count == protobufPrefix.count, header[0] == 0x08, header[1] < 0x80,
      header[2] == 0x12, header[3] < 0x80
    else { throw .malformedPrivateKey }
    guard header[1] == Libp2pKeyType.ed25519 else { throw .unsupportedKeyType(header[1]) }
    guard Int(header[3]) == protobuf.count - header.count else { throw .malformedPrivateKey }
    guard Int(header[3]) == dataByteCount else { throw .wrongPrivateKeyLength(Int(header[3])) }

    let publicKeyStart = header.count + Ed25519.PrivateKey.byteCount
    guard
      let key = try? Ed25519.PrivateKey(rawRepresentation: protobuf[header.count..<publicKeyStart])
    else { throw .malformedPrivateKey }
    let embedded = protobuf.withUnsafeBytes { [UInt8]($0[publicKeyStart...]) }
    guard embedded == key.publicKey.rawRepresentation else { throw .publicKeyMismatch }
    return key
  }

  /// The key in base64 text (`Identity.PrivKey`; whitespace is ignored).
  public static func decode(base64 bytes: some ContiguousBytes) throws(Libp2pError)
    -> Ed25519.PrivateKey
  {
    guard let protobuf = SecureBase64.decode(bytes as? SecureBytes ?? SecureBytes(bytes)) else {
      throw .notBase64
    }
    return try decode(protobuf: protobuf)
  }
}

import CryptoPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The OpenSSH wire encoding (RFC 4251 §5) of Ed25519 public keys, their `authorized_keys`
/// line and their SHA-256 fingerprint, as `ssh-keygen -l` prints it.
public enum OpenSSH {
  /// The key type name of Ed25519 keys.
  public static let ed25519KeyType = "ssh-ed25519"

  /// Appends RFC 4251 `uint32` and `string` values.
  public struct WireWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// A big-endian 32-bit integer.
    public mutating func append(uint32 value: UInt32) {
      withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// A length-prefixed byte string.
    public mutating func append(string value: some Collection<UInt8>) {
      append(uint32: UInt32(value.count))
      bytes.append(contentsOf: value)
    }

    /// A length-prefixed UTF-8 string.
    public mutating func append(string value: String) { append(string: Array(value.utf8)) }
  }

  /// `string("ssh-ed25519") ‖ string(pk)`: the public key blob.
  public static func publicKeyBlob(_ publicKey: Ed25519.PublicKey) -> [UInt8] {
    var writer = WireWriter()
    writer.append(string: ed25519KeyType)
    writer.append(string: publicKey.rawRepresentation)
    return writer.bytes
  }

  /// `ssh-ed25519 <base64 blob>`, followed by ` comment` when one is given.
  public static func authorizedKeyLine(_ publicKey: Ed25519.PublicKey, comment: String? = nil)
    -> String
  {
    let line = "\(ed25519KeyType) \(Data(publicKeyBlob(publicKey)).base64EncodedString())"
    guard let comment, !comment.isEmpty else { return line }
    return "\(line) \(comment)"
  }

  /// `SHA256:` ‖ unpadded base64 of SHA-256(blob), as `ssh-keygen -l` prints.
  public static func fingerprint(_ publicKey: Ed25519.PublicKey) -> String {
    let digest = Data(SHA256.hash(publicKeyBlob(publicKey))).base64EncodedString()
    return "SHA256:" + digest.filter { $0 != "=" }
  }
}

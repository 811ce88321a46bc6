import CryptoPrimitives

/// A Swarm (bee) node's overlay address: Keccak-256(Ethereum address 20 bytes ‖ network ID as
/// uint64 little-endian ‖ 32-byte nonce), as bee computes it from its swarm key.
public struct SwarmOverlay: Sendable, Equatable {
  /// The network ID of Swarm mainnet.
  public static let mainnet: UInt64 = 1
  /// The network ID of the Swarm testnet.
  public static let testnet: UInt64 = 10
  /// The byte length of the nonce.
  public static let nonceByteCount = 32
  /// The byte length of an overlay address.
  public static let byteCount = Keccak256.byteCount

  /// The node's Ethereum address.
  public let address: EthereumAddress
  /// The network the overlay belongs to.
  public let networkID: UInt64
  /// The 32-byte nonce (all zero for a node that never mined a neighbourhood).
  public let nonce: [UInt8]
  /// The 32 overlay bytes.
  public let rawRepresentation: [UInt8]

  /// The overlay of `address` on network `networkID` with `nonce` (32 bytes, zero by default).
  public init(
    address: EthereumAddress, networkID: UInt64 = SwarmOverlay.mainnet,
    nonce: [UInt8] = [UInt8](repeating: 0, count: SwarmOverlay.nonceByteCount)
  ) throws(SwarmOverlayError) {
    guard nonce.count == Self.nonceByteCount else { throw .wrongNonceLength(nonce.count) }
    var input = address.rawRepresentation
    withUnsafeBytes(of: networkID.littleEndian) { input.append(contentsOf: $0) }
    input += nonce
    self.address = address
    self.networkID = networkID
    self.nonce = nonce
    self.rawRepresentation = Keccak256.hash(input)
  }

  /// The 64 lowercase hex digits without `0x`, as bee prints the overlay.
  public var hex: String { Hex.encode(rawRepresentation) }
}

/// Why a Swarm overlay cannot be computed.
public enum SwarmOverlayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The nonce was not 32 bytes.
  case wrongNonceLength(Int)

  public var description: String {
    switch self {
    case .wrongNonceLength(let count):
      "a Swarm overlay nonce is 32 bytes (64 hex digits), got \(count) bytes"
    }
  }
}

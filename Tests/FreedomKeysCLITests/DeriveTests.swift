import Foundation
import Testing

@Suite("derive")
struct DeriveTests {
  static let walletAddress = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
}

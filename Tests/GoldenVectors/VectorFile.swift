import Foundation

/// A JSON file of Tests/GoldenVectors/Vectors: where it came from and its vectors.
struct VectorFile<Vector: Decodable>: Decodable {
  let source: String
  let description: String
  let vectors: [Vector]

  /// Decodes `Vectors/<name>.json` from the test bundle.
  static func load(_ name: String) throws -> VectorFile {
    guard
      let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors")
    else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Vectors/\(name).json"])
    }
    return try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url))
  }
}

extension Array where Element == UInt8 {
  /// Test convenience: bytes from hex that must be valid.
  init(hex: String) {
    var bytes = [UInt8]()
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    self = bytes
  }
}

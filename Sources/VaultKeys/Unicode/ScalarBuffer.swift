import CryptoPrimitives

/// Unicode scalars held in a zeroizing buffer and worked on in place, so text that is a secret
/// (a passphrase) can be decoded, decomposed and edited without a `String` or an `Array` of it
/// left behind in freed memory.
package struct ScalarBuffer {
  private static let stride = MemoryLayout<UInt32>.size

  private let memory: UnsafeMutableRawBufferPointer
  /// The most scalars the buffer holds.
  package let capacity: Int
  /// The scalars held.
  package private(set) var count = 0

  private init(memory: UnsafeMutableRawBufferPointer, capacity: Int) {
    self.memory = memory
    self.capacity = capacity
  }

  /// Calls `body` with an empty buffer of room for `capacity` scalars; the memory is wiped when
  /// `body` returns, and the buffer must not escape it.
  package static func withWiped<R>(
    capacity: Int, _ body: (inout ScalarBuffer) throws -> R
  ) rethrows -> R {
    var result: R?
    _ = try SecureBytes(count: capacity * stride) { memory in
      var buffer = ScalarBuffer(memory: memory, capacity: capacity)
      result = try body(&buffer)
    }
    // `body` ran once and returned.
    return result!
  }

  package subscript(index: Int) -> Unicode.Scalar {
    get {
      precondition(index >= 0 && index < count, "scalar index out of range")
      // Only scalars are stored.
      return Unicode.Scalar(
        memory.loadUnaligned(fromByteOffset: index * Self.stride, as: UInt32.self))!
    }
    set {
      precondition(index >= 0 && index < count, "scalar index out of range")
      memory.storeBytes(of: newValue.value, toByteOffset: index * Self.stride, as: UInt32.self)
    }
  }

  package func contains(_ scalar: Unicode.Scalar) -> Bool {
    for index in 0..<count where self[index] == scalar { return true }
    return false
  }

  package mutating func append(_ scalar: Unicode.Scalar) {
    precondition(count < capacity, "scalar buffer full")
    count += 1
    self[count - 1] = scalar
  }

  /// Replaces the scalars by those of `other`.
  package mutating func assign(_ other: ScalarBuffer) {
    precondition(other.count <= capacity, "scalar buffer full")
    count = other.count
    for index in 0..<count { self[index] = other[index] }
  }

  package mutating func removeAll() { count = 0 }

  package mutating func remove(at position: Int) {
    precondition(position >= 0 && position < count, "scalar index out of range")
    for index in position..<(count - 1) { self[index] = self[index + 1] }
    count -= 1
  }

  package mutating func insert(_ scalar: Unicode.Scalar, at position: Int) {
    precondition(position >= 0 && position <= count, "scalar index out of range")
    append(scalar)
    var index = count - 1
    while index > position {
      self[index] = self[index - 1]
      index -= 1
    }
    self[position] = scalar
  }

  package mutating func swapAt(_ i: Int, _ j: Int) {
    let scalar = self[i]
    self[i] = self[j]
    self[j] = scalar
  }

  /// Appends the scalars of `text`, which must be valid UTF-8 (checked: a crash otherwise).
  package mutating func append(utf8 text: UnsafeRawBufferPointer) {
    let valid = Self.forEachScalar(inUTF8: text) { append($0) }
    precondition(valid, "text is not valid UTF-8")
  }

  /// Writes the scalars as UTF-8 at `offset` of `target`; the offset after them.
  @discardableResult
  package func encode(into target: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
    var offset = offset
    for index in 0..<count {
      // Every stored value is a scalar, which UTF-8 encodes.
      for unit in UTF8.encode(self[index])! {
        target[offset] = unit
        offset += 1
      }
    }
    return offset
  }

  // MARK: - Decoding

  /// Calls `body` with each scalar of the UTF-8 `text`, decoded where it lies; false (after the
  /// scalars before it) at the first ill-formed sequence.
  @discardableResult
  package static func forEachScalar(
    inUTF8 text: UnsafeRawBufferPointer, _ body: (Unicode.Scalar) -> Void
  ) -> Bool {
    var parser = Unicode.UTF8.ForwardParser()
    var bytes = text.makeIterator()
    while true {
      switch parser.parseScalar(from: &bytes) {
      case .valid(let encoded): body(Unicode.UTF8.decode(encoded))
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// Whether `text` is well-formed UTF-8.
  package static func isValidUTF8(_ text: UnsafeRawBufferPointer) -> Bool {
    forEachScalar(inUTF8: text) { _ in }
  }

  /// The number of scalars of `text`, or nil when it is not valid UTF-8.
  package static func scalarCount(inUTF8 text: UnsafeRawBufferPointer) -> Int? {
    var count = 0
    return forEachScalar(inUTF8: text) { _ in count += 1 } ? count : nil
  }
}

/// A valid address for zero-length inputs: libsodium marks its pointer parameters non-null.
private nonisolated(unsafe) let emptyByte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

extension UnsafeRawBufferPointer {
  /// The start as a byte pointer that is never nil, for C parameters declared non-null.
  var bytePointer: UnsafePointer<UInt8> {
    baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(emptyByte)
  }
}

extension UnsafeMutableRawBufferPointer {
  /// The start as a byte pointer that is never nil, for C parameters declared non-null.
  var bytePointer: UnsafeMutablePointer<UInt8> {
    baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyByte
  }
}

extension UnsafeMutableRawBufferPointer {
  /// The start as a raw pointer that is never nil.
  var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bytePointer) }
}

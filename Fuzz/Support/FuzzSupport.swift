import Glibc

/// Stops the fuzzer with a message when an oracle does not hold; libFuzzer saves the input.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard condition else {
    fputs("fuzz oracle failed: \(message())\n", stderr)
    abort()
  }
}

/// The input as a byte array (libFuzzer may pass a null pointer for an empty input).
func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  guard let data, size > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: data, count: size))
}

internal import CSodium

/// Runs `body` with `byteCount` zeroed bytes, 64-byte aligned and locked in memory, that are
/// wiped, unlocked and freed after it: the scratch of one derivation's intermediates (keyed
/// states, U, T), so none of them outlives the call or reaches swap.
func withLockedScratch<R>(byteCount: Int, _ body: (UnsafeMutableRawPointer) -> R) -> R {
  let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 64)
  memory.initializeMemory(as: UInt8.self, repeating: 0)
  _ = sodium_mlock(memory.baseAddress!, byteCount)
  defer {
    sodium_memzero(memory.baseAddress!, byteCount)
    _ = sodium_munlock(memory.baseAddress!, byteCount)
    memory.deallocate()
  }
  return body(memory.baseAddress!)
}

import Foundation
import Testing

/// Makes the directory at `path` one its owner cannot create files in, and returns the closure
/// that makes it writable again. A normal user gets `chmod 0500`; root ignores permission bits,
/// so root gets the immutable attribute (`chattr +i`), and where that is impossible (no
/// CAP_LINUX_IMMUTABLE, as in a default container, no chattr, or a file system without
/// attributes) the test is skipped with the reason, never failed.
func makeReadOnlyDirectory(_ path: String) throws -> () -> Void {
  if geteuid() != 0 {
    try #require(chmod(path, 0o500) == 0, "chmod 0500 \(path) failed: errno \(errno)")
    return { _ = chmod(path, 0o700) }
  }
  guard setImmutable(path, true) else {
    try Test.cancel(
      """
      running as root without chattr +i (no CAP_LINUX_IMMUTABLE here, no chattr, or no \
      attribute support): root ignores permission bits, so no directory can be read-only; \
      run the tests as a normal user to cover this
      """)
  }
  return { _ = setImmutable(path, false) }
}

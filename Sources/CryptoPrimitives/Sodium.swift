internal import CSodium

/// libsodium must be initialised once before any other call; `Sodium.ready` does that lazily.
enum Sodium {
  static let ready: Bool = {
    let status = sodium_init()
    precondition(status >= 0, "libsodium could not be initialised")
    return true
  }()
}

#ifndef FREEDOM_KEYS_CSECP256K1_SHIM_H
#define FREEDOM_KEYS_CSECP256K1_SHIM_H
#include <secp256k1.h>

/// The library's static, read-only context. Swift 6 treats the exported global as unsafe mutable
/// state, so it is reached through this accessor instead.
static inline const secp256k1_context *fk_secp256k1_context_static(void) {
  return secp256k1_context_static;
}
#endif

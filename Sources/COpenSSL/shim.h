#ifndef FREEDOM_KEYS_COPENSSL_SHIM_H
#define FREEDOM_KEYS_COPENSSL_SHIM_H
/* Only libcrypto, only for what libsodium lacks: RIPEMD-160, SHA-512 compression for PBKDF2
   and BIP-32's HMACs, SHA-256 with the CPU's SHA extensions for the recovery search's checksums,
   AES-CTR and AES-GCM with a 16-byte IV. The low-level digest calls are deprecated in OpenSSL 3
   but remain part of its ABI; asking for the 1.1.1 API keeps them visible without warnings. */
#define OPENSSL_API_COMPAT 10101
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/ripemd.h>
#include <openssl/sha.h>
#endif

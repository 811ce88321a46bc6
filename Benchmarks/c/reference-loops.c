/* Reference loops in plain C for freedom-keys-bench, built and run by it with cc:
 *
 *   reference-loops pbkdf2 N       N BIP-39 seeds with OpenSSL's PKCS5_PBKDF2_HMAC (SHA-512, 2048)
 *   reference-loops addresses N    N addresses m/44'/60'/0'/0/i over libsecp256k1 + libsodium
 *
 * The 64-byte seed is read as hex from stdin (only the published abandon ... about phrase is
 * used). Each mode prints the thread CPU time per item in microseconds, then a result for the
 * benchmark's self-check: the seed of "abandon ... about", or the address of i = 0.
 * The address loop is what a careful C program does: the parent m/44'/60'/0'/0 is derived and
 * its public key serialised once; each address is one HMAC-SHA512, one scalar tweak, one point
 * multiplication, one serialisation and one Keccak-256. */
#define OPENSSL_API_COMPAT 10101
#include <openssl/evp.h>
#include <secp256k1.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

/* Keccak-256 (original padding 0x01), from the Keccak reference specification. */
static const uint64_t RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
static const unsigned R[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                               25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};
static uint64_t rotl(uint64_t v, unsigned n) { return n ? (v << n) | (v >> (64 - n)) : v; }
static void keccak_f(uint64_t a[25]) {
  uint64_t b[25], c[5], d;
  for (int round = 0; round < 24; round++) {
    for (int x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; x++) {
      d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) a[y + x] ^= d;
    }
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], R[x + 5 * y]);
    for (int y = 0; y < 25; y += 5)
      for (int x = 0; x < 5; x++) a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]);
    a[0] ^= RC[round];
  }
}
/* Keccak-256 of a message shorter than the 136-byte rate (all this loop needs). */
static void keccak256_short(const uint8_t *in, size_t len, uint8_t out[32]) {
  uint64_t a[25] = {0};
  uint8_t block[136] = {0};
  memcpy(block, in, len);
  block[len] |= 0x01;
  block[135] |= 0x80;
  for (int i = 0; i < 17; i++) {
    uint64_t w;
    memcpy(&w, block + 8 * i, 8); /* little-endian host */
    a[i] ^= w;
  }
  keccak_f(a);
  memcpy(out, a, 32);
}

/* CKDpriv; parent_pub is the parent's compressed key, needed for a normal child. */
static int ckd(const secp256k1_context *ctx, uint8_t key[32], uint8_t chain[32],
               const uint8_t parent_pub[33], uint32_t index) {
  uint8_t msg[37], i64[64];
  if (index & 0x80000000u) {
    msg[0] = 0;
    memcpy(msg + 1, key, 32);
  } else {
    memcpy(msg, parent_pub, 33);
  }
  msg[33] = index >> 24, msg[34] = index >> 16, msg[35] = index >> 8, msg[36] = index;
  crypto_auth_hmacsha512_state st;
  crypto_auth_hmacsha512_init(&st, chain, 32);
  crypto_auth_hmacsha512_update(&st, msg, 37);
  crypto_auth_hmacsha512_final(&st, i64);
  if (!secp256k1_ec_seckey_tweak_add(ctx, key, i64)) return 0;
  memcpy(chain, i64 + 32, 32);
  return 1;
}

static void compressed(const secp256k1_context *ctx, const uint8_t key[32], uint8_t out[33]) {
  secp256k1_pubkey p;
  size_t len = 33;
  if (!secp256k1_ec_pubkey_create(ctx, &p, key)) exit(1);
  secp256k1_ec_pubkey_serialize(ctx, out, &len, &p, SECP256K1_EC_COMPRESSED);
}

static void hex(const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  long n = atol(argv[2]);
  if (strcmp(argv[1], "pbkdf2") == 0) {
    const char *phrase = "abandon abandon abandon abandon abandon abandon abandon abandon "
                         "abandon abandon abandon about";
    uint8_t seed[64];
    double t0 = cpu_us();
    for (long i = 0; i < n; i++)
      PKCS5_PBKDF2_HMAC(phrase, strlen(phrase), (const uint8_t *)"mnemonic", 8, 2048,
                        EVP_sha512(), 64, seed);
    printf("%.3f\n", (cpu_us() - t0) / n);
    hex(seed, 64);
    return 0;
  }
  if (strcmp(argv[1], "addresses") != 0 || sodium_init() < 0) return 2;
  char text[129] = {0};
  uint8_t seed[64];
  if (scanf("%128s", text) != 1 || sodium_hex2bin(seed, 64, text, 128, NULL, NULL, NULL) != 0)
    return 2;
  secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  uint8_t i64[64], key[32], chain[32], pub[33], parent_pub[33];
  crypto_auth_hmacsha512_state st;
  crypto_auth_hmacsha512_init(&st, (const uint8_t *)"Bitcoin seed", 12);
  crypto_auth_hmacsha512_update(&st, seed, 64);
  crypto_auth_hmacsha512_final(&st, i64);
  memcpy(key, i64, 32);
  memcpy(chain, i64 + 32, 32);
  const uint32_t path[4] = {0x8000002c, 0x8000003c, 0x80000000, 0};
  for (int i = 0; i < 4; i++) {
    compressed(ctx, key, pub);
    if (!ckd(ctx, key, chain, pub, path[i])) return 1;
  }
  compressed(ctx, key, parent_pub);
  uint8_t first[20], address[20];
  double t0 = cpu_us();
  for (long i = 0; i < n; i++) {
    uint8_t child[32], child_chain[32], full[65], digest[32];
    memcpy(child, key, 32);
    memcpy(child_chain, chain, 32);
    if (!ckd(ctx, child, child_chain, parent_pub, (uint32_t)i)) return 1;
    secp256k1_pubkey p;
    size_t len = 65;
    if (!secp256k1_ec_pubkey_create(ctx, &p, child)) return 1;
    secp256k1_ec_pubkey_serialize(ctx, full, &len, &p, SECP256K1_EC_UNCOMPRESSED);
    keccak256_short(full + 1, 64, digest);
    memcpy(address, digest + 12, 20);
    if (i == 0) memcpy(first, address, 20);
  }
  printf("%.3f\n", (cpu_us() - t0) / n);
  hex(first, 20);
  secp256k1_context_destroy(ctx);
  return 0;
}

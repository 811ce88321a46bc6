#ifndef FREEDOM_KEYS_CSHA2LANES_SHIM_H
#define FREEDOM_KEYS_CSHA2LANES_SHIM_H
/* PBKDF2-HMAC-SHA512 and PBKDF2-HMAC-SHA256 iterations for several candidates side by side,
   one candidate a SIMD lane: SHA-512 in 8 (AVX-512) or 4 (AVX2) 64-bit lanes, SHA-256 in 16 or 8
   32-bit lanes. From the second iteration on every HMAC message is one digest, so each of the
   two compressions an iteration costs takes one block whose last eight words are fixed (the 1
   bit, zeros, the length): those words and their part of the message schedule fold into
   constants, and the iterations run with no job set-up, only the chaining values passing
   through memory between compressions. The keyed pad states and U_1 (one HMAC over the salt, of any
   length) are computed by the caller. FIPS 180-4 (sections 4 and 6) is the reference; the code
   is only its round function in vectors.

   There is no library to link: the functions are compiled with the instruction set named in
   their target attribute and must only be called where the CPU has it (fk_sha2_lanes_cpu). */
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/* FIPS 180-4, 4.2.3: the first 64 bits of the fractional parts of the cube roots of the first
   80 primes. */
static const uint64_t fk_sha512_k[80] = {
0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};

/* Whether the CPU runs the AVX-512 (2) or AVX2 (1) kernel; 0 for neither. */
static inline int fk_sha2_lanes_cpu(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 2;
  if (__builtin_cpu_supports("avx2")) return 1;
  return 0;
}

/* Stores zeros that the compiler may not remove: the stack copies of keys and U. */
static inline void fk_sha2_lanes_wipe(void *memory, size_t count) {
  if ((uintptr_t)memory % 8 == 0 && count % 8 == 0) {
    volatile uint64_t *words = (volatile uint64_t *)memory;
    for (size_t i = 0; i < count / 8; i++) words[i] = 0;
    return;
  }
  volatile unsigned char *bytes = (volatile unsigned char *)memory;
  for (size_t i = 0; i < count; i++) bytes[i] = 0;
}

/* Zeros the stack below the caller, where a finished compression's frame (its W and working
   variables, when the registers did not hold them all) lay: about 1 KiB at most, of the 2 KiB
   zeroed. */
__attribute__((noinline)) static void fk_sha2_lanes_scrub_stack(void) {
  uint64_t below[256];
  fk_sha2_lanes_wipe(below, sizeof below);
}

/* FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
   64 primes. */
static const uint32_t fk_sha256_k[64] = {
0x428a2f98U, 0x71374491U, 0xb5c0fbcfU, 0xe9b5dba5U, 0x3956c25bU, 0x59f111f1U, 0x923f82a4U, 0xab1c5ed5U,
0xd807aa98U, 0x12835b01U, 0x243185beU, 0x550c7dc3U, 0x72be5d74U, 0x80deb1feU, 0x9bdc06a7U, 0xc19bf174U,
0xe49b69c1U, 0xefbe4786U, 0x0fc19dc6U, 0x240ca1ccU, 0x2de92c6fU, 0x4a7484aaU, 0x5cb0a9dcU, 0x76f988daU,
0x983e5152U, 0xa831c66dU, 0xb00327c8U, 0xbf597fc7U, 0xc6e00bf3U, 0xd5a79147U, 0x06ca6351U, 0x14292967U,
0x27b70a85U, 0x2e1b2138U, 0x4d2c6dfcU, 0x53380d13U, 0x650a7354U, 0x766a0abbU, 0x81c2c92eU, 0x92722c85U,
0xa2bfe8a1U, 0xa81a664bU, 0xc24b8b70U, 0xc76c51a3U, 0xd192e819U, 0xd6990624U, 0xf40e3585U, 0x106aa070U,
0x19a4c116U, 0x1e376c08U, 0x2748774cU, 0x34b0bcb5U, 0x391c0cb3U, 0x4ed8aa4aU, 0x5b9cca4fU, 0x682e6ff3U,
0x748f82eeU, 0x78a5636fU, 0x84c87814U, 0x8cc70208U, 0x90befffaU, 0xa4506cebU, 0xbef9a3f7U, 0xc67178f2U};

/* FIPS 180-4, 5.3.5 and 5.3.3: the initial hash values of SHA-512 and SHA-256. */
static const uint64_t fk_sha512_iv[8] = {
0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
static const uint32_t fk_sha256_iv[8] = {
0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU, 0x510e527fU, 0x9b05688cU, 0x1f83d9abU, 0x5be0cd19U};

/* One kernel per hash and vector width, written once. VEC holds one word (WORD) of every lane;
   ROR, SHR, XOR3 (a ^ b ^ c), CH (e ? f : g) and MAJ (majority) act lane by lane; BIG0/BIG1
   and SMALL0/SMALL1 are the hash's Σ and σ functions, ROUNDS and K its rounds and constants.
   From the second iteration on, an HMAC message is one digest (8 words): the block is that
   digest, a 1 bit, zeros and the length LENGTH_BITS of key block plus digest.

   NAME(ipad, opad, u1, t, iterations): for lane L of LANES, ipad[8L..8L+7] and opad[8L..8L+7]
   are the state words (host order) after one block of K ^ ipad and K ^ opad, u1[8L..8L+7] the
   words of U_1; t receives the words of T = U_1 ^ U_2 ^ ... ^ U_c. */
#define FK_HMAC_LANES_KERNEL(NAME, TARGET, LANES, WORD, VEC, LOAD, STORE, SET1, ADD, XOR, XOR3,   \
                             CH, MAJ, BIG0, BIG1, SMALL0, SMALL1, ROUNDS, K, IV, HIGH_BIT,        \
                             LENGTH_BITS)                                                       \
  /* Round i of eight: the working variables rotate through s by index, not by moves. */      \
  __attribute__((target(TARGET), always_inline)) static inline void NAME##_round(             \
      VEC s[8], int i, VEC kw) {                                                                \
    VEC a = s[(8 - i) & 7], b = s[(9 - i) & 7], c = s[(10 - i) & 7], d = s[(11 - i) & 7];       \
    VEC e = s[(12 - i) & 7], f = s[(13 - i) & 7], g = s[(14 - i) & 7], h = s[(15 - i) & 7];     \
    VEC t1 = ADD(ADD(h, BIG1(e)), ADD(CH(e, f, g), kw));                                        \
    s[(11 - i) & 7] = ADD(d, t1);                                                               \
    s[(15 - i) & 7] = ADD(t1, ADD(BIG0(a), MAJ(a, b, c)));                                      \
  }                                                                                             \
  /* W_t for t = j (mod 16), in place over W_{t-16}. */                                         \
  __attribute__((target(TARGET), always_inline)) static inline void NAME##_schedule(          \
      VEC w[16], int j) {                                                                       \
    w[j] = ADD(ADD(w[j], SMALL0(w[(j + 1) & 15])), ADD(w[(j + 9) & 15], SMALL1(w[(j + 14) & 15]))); \
  }                                                                                             \
  /* Rounds `first` (a multiple of 16) to the last, in groups of 16 with W in registers. */    \
  __attribute__((target(TARGET), always_inline)) static inline void NAME##_rounds_from(       \
      int first, VEC s[8], VEC w[16]) {                                                         \
    _Pragma("clang loop unroll(disable)")                                                       \
    for (int base = first; base < ROUNDS; base += 16) {                                         \
      _Pragma("clang loop unroll(full)")                                                        \
      for (int j = 0; j < 16; j++) {                                                            \
        NAME##_schedule(w, j);                                                                  \
        NAME##_round(s, j & 7, ADD(SET1(K[base + j]), w[j]));                                   \
      }                                                                                         \
    }                                                                                           \
  }                                                                                             \
  /* out = state after one compression of a digest's block: m, the 1 bit, zeros, the length.  \
     The first 32 rounds are unrolled so that the fixed words and their schedule fold into      \
     constants, the rest run in groups of 16 so that W stays in registers; one copy serves both \
     hashes of an iteration. */                                                                 \
  __attribute__((target(TARGET), noinline)) static void NAME##_compress(                       \
      const VEC state[8], const VEC m[8], VEC out[8]) {                                         \
    VEC s[8], w[16];                                                                            \
    for (int j = 0; j < 8; j++) { s[j] = state[j]; w[j] = m[j]; }                               \
    w[8] = SET1(HIGH_BIT);                                                                      \
    for (int j = 9; j < 15; j++) w[j] = SET1(0);                                                \
    w[15] = SET1(LENGTH_BITS);                                                                  \
    _Pragma("clang loop unroll(full)")                                                          \
    for (int r = 0; r < 16; r++) NAME##_round(s, r & 7, ADD(SET1(K[r]), w[r]));                 \
    _Pragma("clang loop unroll(full)")                                                          \
    for (int r = 16; r < 32; r++) {                                                             \
      NAME##_schedule(w, r & 15);                                                               \
      NAME##_round(s, r & 7, ADD(SET1(K[r]), w[r & 15]));                                       \
    }                                                                                           \
    NAME##_rounds_from(32, s, w);                                                               \
    for (int j = 0; j < 8; j++) out[j] = ADD(state[j], s[j]);                                   \
  }                                                                                             \
                                                                                                \
  /* out = state after one compression of any block m. */                                     \
  __attribute__((target(TARGET), noinline)) static void NAME##_block(                          \
      const VEC state[8], const VEC m[16], VEC out[8]) {                                        \
    VEC s[8], w[16];                                                                            \
    for (int j = 0; j < 8; j++) s[j] = state[j];                                                \
    for (int j = 0; j < 16; j++) w[j] = m[j];                                                   \
    _Pragma("clang loop unroll(full)")                                                          \
    for (int r = 0; r < 16; r++) NAME##_round(s, r & 7, ADD(SET1(K[r]), w[r]));                 \
    NAME##_rounds_from(16, s, w);                                                               \
    for (int j = 0; j < 8; j++) out[j] = ADD(state[j], s[j]);                                   \
  }                                                                                             \
                                                                                                \
  /* Word j of every lane from [lane][word] memory (`words` a lane), and back. */               \
  __attribute__((target(TARGET))) static inline VEC NAME##_gather(const WORD *m, int words,    \
                                                                  int j) {                      \
    WORD column[LANES];                                                                         \
    for (int l = 0; l < LANES; l++) column[l] = m[words * l + j];                               \
    VEC v = LOAD(column);                                                                       \
    fk_sha2_lanes_wipe(column, sizeof column);                                                \
    return v;                                                                                   \
  }                                                                                             \
  __attribute__((target(TARGET))) static inline void NAME##_scatter(WORD *m, int j, VEC v) {   \
    WORD column[LANES];                                                                         \
    STORE(column, v);                                                                           \
    for (int l = 0; l < LANES; l++) m[8 * l + j] = column[l];                                   \
    fk_sha2_lanes_wipe(column, sizeof column);                                                \
  }                                                                                             \
                                                                                                \
  __attribute__((target(TARGET))) static inline void NAME(                                     \
      const WORD *ipad, const WORD *opad, const WORD *u1, WORD *t, uint32_t iterations) {      \
    VEC inner[8], outer[8], u[8], sum[8], digest[8];                                            \
    for (int j = 0; j < 8; j++) {                                                               \
      inner[j] = NAME##_gather(ipad, 8, j);                                                     \
      outer[j] = NAME##_gather(opad, 8, j);                                                     \
      u[j] = NAME##_gather(u1, 8, j);                                                           \
      sum[j] = u[j];                                                                            \
    }                                                                                           \
    for (uint32_t i = 1; i < iterations; i++) {                                                 \
      /* The inner hash: the state after K ^ ipad, then U padded; U = the outer hash of the   \
         inner digest, padded the same way. */                                                  \
      NAME##_compress(inner, u, digest);                                                        \
      NAME##_compress(outer, digest, u);                                                        \
      for (int j = 0; j < 8; j++) sum[j] = XOR(sum[j], u[j]);                                   \
    }                                                                                           \
    for (int j = 0; j < 8; j++) NAME##_scatter(t, j, sum[j]);                                   \
    fk_sha2_lanes_scrub_stack();                                                                \
    fk_sha2_lanes_wipe(inner, sizeof inner); fk_sha2_lanes_wipe(outer, sizeof outer);       \
    fk_sha2_lanes_wipe(u, sizeof u); fk_sha2_lanes_wipe(sum, sizeof sum);                   \
    fk_sha2_lanes_wipe(digest, sizeof digest);                                                \
  }                                                                                             \
                                                                                                \
  /* NAME_hmac(key, message, tag, ipad, opad): HMAC of one block of message for every lane.    \
     key[16L..16L+15] are lane L's key words (a key of at most one block, zero-padded),          \
     message[16L..16L+15] its message block, already padded (the 1 bit, zeros, the length of   \
     key block and message); tag[8L..8L+7] receives the HMAC's words, and ipad and opad, unless \
     NULL, the keyed pad states. Words in host order. */                                        \
  __attribute__((target(TARGET))) static inline void NAME##_hmac(                              \
      const WORD *key, const WORD *message, WORD *tag, WORD *ipad, WORD *opad) {                \
    VEC k[16], block[16], iv[8], inner[8], outer[8], digest[8];                                 \
    for (int j = 0; j < 8; j++) iv[j] = SET1(IV[j]);                                            \
    for (int j = 0; j < 16; j++) k[j] = NAME##_gather(key, 16, j);                              \
    for (int j = 0; j < 16; j++) block[j] = XOR(k[j], SET1((WORD)0x3636363636363636ULL));       \
    NAME##_block(iv, block, inner);                                                             \
    for (int j = 0; j < 16; j++) block[j] = XOR(k[j], SET1((WORD)0x5c5c5c5c5c5c5c5cULL));       \
    NAME##_block(iv, block, outer);                                                             \
    for (int j = 0; j < 16; j++) block[j] = NAME##_gather(message, 16, j);                      \
    NAME##_block(inner, block, digest);                                                         \
    NAME##_compress(outer, digest, block);                                                      \
    for (int j = 0; j < 8; j++) NAME##_scatter(tag, j, block[j]);                               \
    for (int j = 0; j < 8 && ipad; j++) NAME##_scatter(ipad, j, inner[j]);                      \
    for (int j = 0; j < 8 && opad; j++) NAME##_scatter(opad, j, outer[j]);                      \
    fk_sha2_lanes_scrub_stack();                                                                \
    fk_sha2_lanes_wipe(k, sizeof k); fk_sha2_lanes_wipe(block, sizeof block);                   \
    fk_sha2_lanes_wipe(inner, sizeof inner); fk_sha2_lanes_wipe(outer, sizeof outer);           \
    fk_sha2_lanes_wipe(digest, sizeof digest);                                                  \
  }

/* AVX-512: native rotates and three-input logic (vpternlog: 0x96 xor, 0xca select, 0xe8
   majority; bitwise, so one form serves both word sizes). */
#define FK_512_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define FK_512_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define FK_512_XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define FK_512_CH(e, f, g) _mm512_ternarylogic_epi64((e), (f), (g), 0xca)
#define FK_512_MAJ(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xe8)
/* AVX2: rotates as two shifts. */
#define FK_256_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define FK_256_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define FK_256_XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256((a), (b)), (c))
#define FK_256_CH(e, f, g) _mm256_xor_si256((g), _mm256_and_si256((e), _mm256_xor_si256((f), (g))))
#define FK_256_MAJ(a, b, c)                                                                       \
  _mm256_or_si256(_mm256_and_si256((a), (b)), _mm256_and_si256((c), _mm256_or_si256((a), (b))))

/* SHA-512 (FIPS 180-4, 4.1.3): 64-bit words, 80 rounds, a 128-byte block: 1536 bits. */
#define FK_512_ROR64(x, n) _mm512_ror_epi64((x), (n))
#define FK_512_SET64(x) _mm512_set1_epi64((long long)(x))
#define FK_512_S512_BIG0(x) FK_512_XOR3(FK_512_ROR64(x, 28), FK_512_ROR64(x, 34), FK_512_ROR64(x, 39))
#define FK_512_S512_BIG1(x) FK_512_XOR3(FK_512_ROR64(x, 14), FK_512_ROR64(x, 18), FK_512_ROR64(x, 41))
#define FK_512_S512_SMALL0(x) FK_512_XOR3(FK_512_ROR64(x, 1), FK_512_ROR64(x, 8), _mm512_srli_epi64((x), 7))
#define FK_512_S512_SMALL1(x) FK_512_XOR3(FK_512_ROR64(x, 19), FK_512_ROR64(x, 61), _mm512_srli_epi64((x), 6))
FK_HMAC_LANES_KERNEL(fk_pbkdf2_sha512_avx512, "avx512f", 8, uint64_t, __m512i, FK_512_LOAD,
                     FK_512_STORE, FK_512_SET64, _mm512_add_epi64, _mm512_xor_si512, FK_512_XOR3,
                     FK_512_CH, FK_512_MAJ, FK_512_S512_BIG0, FK_512_S512_BIG1, FK_512_S512_SMALL0,
                     FK_512_S512_SMALL1, 80, fk_sha512_k, fk_sha512_iv,
                     0x8000000000000000ULL, 1536)

#define FK_256_ROR64(x, n) _mm256_or_si256(_mm256_srli_epi64((x), (n)), _mm256_slli_epi64((x), 64 - (n)))
#define FK_256_SET64(x) _mm256_set1_epi64x((long long)(x))
#define FK_256_S512_BIG0(x) FK_256_XOR3(FK_256_ROR64(x, 28), FK_256_ROR64(x, 34), FK_256_ROR64(x, 39))
#define FK_256_S512_BIG1(x) FK_256_XOR3(FK_256_ROR64(x, 14), FK_256_ROR64(x, 18), FK_256_ROR64(x, 41))
#define FK_256_S512_SMALL0(x) FK_256_XOR3(FK_256_ROR64(x, 1), FK_256_ROR64(x, 8), _mm256_srli_epi64((x), 7))
#define FK_256_S512_SMALL1(x) FK_256_XOR3(FK_256_ROR64(x, 19), FK_256_ROR64(x, 61), _mm256_srli_epi64((x), 6))
FK_HMAC_LANES_KERNEL(fk_pbkdf2_sha512_avx2, "avx2", 4, uint64_t, __m256i, FK_256_LOAD,
                     FK_256_STORE, FK_256_SET64, _mm256_add_epi64, _mm256_xor_si256, FK_256_XOR3,
                     FK_256_CH, FK_256_MAJ, FK_256_S512_BIG0, FK_256_S512_BIG1, FK_256_S512_SMALL0,
                     FK_256_S512_SMALL1, 80, fk_sha512_k, fk_sha512_iv,
                     0x8000000000000000ULL, 1536)

/* SHA-256 (FIPS 180-4, 4.1.2): 32-bit words, 64 rounds, a 64-byte block: 768 bits. */
#define FK_512_ROR32(x, n) _mm512_ror_epi32((x), (n))
#define FK_512_SET32(x) _mm512_set1_epi32((int)(x))
#define FK_512_S256_BIG0(x) FK_512_XOR3(FK_512_ROR32(x, 2), FK_512_ROR32(x, 13), FK_512_ROR32(x, 22))
#define FK_512_S256_BIG1(x) FK_512_XOR3(FK_512_ROR32(x, 6), FK_512_ROR32(x, 11), FK_512_ROR32(x, 25))
#define FK_512_S256_SMALL0(x) FK_512_XOR3(FK_512_ROR32(x, 7), FK_512_ROR32(x, 18), _mm512_srli_epi32((x), 3))
#define FK_512_S256_SMALL1(x) FK_512_XOR3(FK_512_ROR32(x, 17), FK_512_ROR32(x, 19), _mm512_srli_epi32((x), 10))
FK_HMAC_LANES_KERNEL(fk_pbkdf2_sha256_avx512, "avx512f", 16, uint32_t, __m512i, FK_512_LOAD,
                     FK_512_STORE, FK_512_SET32, _mm512_add_epi32, _mm512_xor_si512, FK_512_XOR3,
                     FK_512_CH, FK_512_MAJ, FK_512_S256_BIG0, FK_512_S256_BIG1, FK_512_S256_SMALL0,
                     FK_512_S256_SMALL1, 64, fk_sha256_k, fk_sha256_iv, 0x80000000U, 768)

#define FK_256_ROR32(x, n) _mm256_or_si256(_mm256_srli_epi32((x), (n)), _mm256_slli_epi32((x), 32 - (n)))
#define FK_256_SET32(x) _mm256_set1_epi32((int)(x))
#define FK_256_S256_BIG0(x) FK_256_XOR3(FK_256_ROR32(x, 2), FK_256_ROR32(x, 13), FK_256_ROR32(x, 22))
#define FK_256_S256_BIG1(x) FK_256_XOR3(FK_256_ROR32(x, 6), FK_256_ROR32(x, 11), FK_256_ROR32(x, 25))
#define FK_256_S256_SMALL0(x) FK_256_XOR3(FK_256_ROR32(x, 7), FK_256_ROR32(x, 18), _mm256_srli_epi32((x), 3))
#define FK_256_S256_SMALL1(x) FK_256_XOR3(FK_256_ROR32(x, 17), FK_256_ROR32(x, 19), _mm256_srli_epi32((x), 10))
FK_HMAC_LANES_KERNEL(fk_pbkdf2_sha256_avx2, "avx2", 8, uint32_t, __m256i, FK_256_LOAD,
                     FK_256_STORE, FK_256_SET32, _mm256_add_epi32, _mm256_xor_si256, FK_256_XOR3,
                     FK_256_CH, FK_256_MAJ, FK_256_S256_BIG0, FK_256_S256_BIG1, FK_256_S256_SMALL0,
                     FK_256_S256_SMALL1, 64, fk_sha256_k, fk_sha256_iv, 0x80000000U, 768)

#else
/* No SIMD kernel here (arm64, other CPUs): fk_sha2_lanes_cpu says so, and the Swift code takes
   its scalar path. Every entry point the Swift code names is still declared, so it compiles on
   every platform (scripts/check-c-aarch64 checks the list); one called anyway stops the process
   rather than return keys it never computed. */
static inline int fk_sha2_lanes_cpu(void) { return 0; }
static inline void fk_pbkdf2_sha512_avx512(const uint64_t *ipad, const uint64_t *opad,
                                           const uint64_t *u1, uint64_t *t, uint32_t iterations) {
  __builtin_trap();
}
static inline void fk_pbkdf2_sha512_avx2(const uint64_t *ipad, const uint64_t *opad,
                                         const uint64_t *u1, uint64_t *t, uint32_t iterations) {
  __builtin_trap();
}
static inline void fk_pbkdf2_sha256_avx512(const uint32_t *ipad, const uint32_t *opad,
                                           const uint32_t *u1, uint32_t *t, uint32_t iterations) {
  __builtin_trap();
}
static inline void fk_pbkdf2_sha256_avx2(const uint32_t *ipad, const uint32_t *opad,
                                         const uint32_t *u1, uint32_t *t, uint32_t iterations) {
  __builtin_trap();
}
static inline void fk_pbkdf2_sha512_avx512_hmac(const uint64_t *key, const uint64_t *message,
                                                uint64_t *tag, uint64_t *ipad, uint64_t *opad) {
  __builtin_trap();
}
static inline void fk_pbkdf2_sha512_avx2_hmac(const uint64_t *key, const uint64_t *message,
                                              uint64_t *tag, uint64_t *ipad, uint64_t *opad) {
  __builtin_trap();
}
static inline void fk_pbkdf2_sha256_avx512_hmac(const uint32_t *key, const uint32_t *message,
                                                uint32_t *tag, uint32_t *ipad, uint32_t *opad) {
  __builtin_trap();
}
static inline void fk_pbkdf2_sha256_avx2_hmac(const uint32_t *key, const uint32_t *message,
                                              uint32_t *tag, uint32_t *ipad, uint32_t *opad) {
  __builtin_trap();
}
#endif
#endif

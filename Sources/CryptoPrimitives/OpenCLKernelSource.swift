/// The OpenCL C source of the PBKDF2 kernels, built by the driver at first use: one source,
/// built twice, with `-D FK_SHA512` (BIP-39 seeds, and seeds fused with their SLIP-0010 Ed25519
/// chains, SLIP-0010's hardened steps being HMACs only) and with `-D FK_SHA256` (vaults,
/// keystores).
///
/// Written from FIPS 180-4 (SHA-512 and SHA-256: sections 4.1.2/4.1.3 functions, 4.2.2/4.2.3
/// constants, 5.1 padding, 5.3 initial values, 6.2/6.4 computation), RFC 2104 (HMAC: a key
/// longer than a block is hashed first, then zero-padded to the block) and RFC 8018 section 5.2
/// (PBKDF2: U_1 = PRF(P, S ‖ INT(1)), U_j = PRF(P, U_{j−1}), T = U_1 ⊕ … ⊕ U_c), one derived
/// block (a digest's length) per work item. Every length is handled: passwords and salts are
/// packed end to end, `ends[i]` the end of item i's bytes.
enum OpenCLKernelSource {
  /// The kernel's name in both builds.
  static let kernelName = "fk_pbkdf2_hmac"
  /// The SHA-512 build's second kernel: BIP-39 seeds, then their SLIP-0010 Ed25519 chains.
  static let ed25519KernelName = "fk_bip39_ed25519"

  /// The build options of each hash.
  static let sha512Options = "-D FK_SHA512"
  static let sha256Options = "-D FK_SHA256"

  static let text = #"""
    #ifdef FK_SHA512
    typedef ulong word;
    #define WORD_BYTES 8
    #define ROUNDS 80
    #define BIG_SIGMA0(x) (rotr(x, 28) ^ rotr(x, 34) ^ rotr(x, 39))
    #define BIG_SIGMA1(x) (rotr(x, 14) ^ rotr(x, 18) ^ rotr(x, 41))
    #define SMALL_SIGMA0(x) (rotr(x, 1) ^ rotr(x, 8) ^ ((x) >> 7))
    #define SMALL_SIGMA1(x) (rotr(x, 19) ^ rotr(x, 61) ^ ((x) >> 6))
    __constant ulong K[80] = {
      0x428a2f98d728ae22UL, 0x7137449123ef65cdUL, 0xb5c0fbcfec4d3b2fUL, 0xe9b5dba58189dbbcUL,
      0x3956c25bf348b538UL, 0x59f111f1b605d019UL, 0x923f82a4af194f9bUL, 0xab1c5ed5da6d8118UL,
      0xd807aa98a3030242UL, 0x12835b0145706fbeUL, 0x243185be4ee4b28cUL, 0x550c7dc3d5ffb4e2UL,
      0x72be5d74f27b896fUL, 0x80deb1fe3b1696b1UL, 0x9bdc06a725c71235UL, 0xc19bf174cf692694UL,
      0xe49b69c19ef14ad2UL, 0xefbe4786384f25e3UL, 0x0fc19dc68b8cd5b5UL, 0x240ca1cc77ac9c65UL,
      0x2de92c6f592b0275UL, 0x4a7484aa6ea6e483UL, 0x5cb0a9dcbd41fbd4UL, 0x76f988da831153b5UL,
      0x983e5152ee66dfabUL, 0xa831c66d2db43210UL, 0xb00327c898fb213fUL, 0xbf597fc7beef0ee4UL,
      0xc6e00bf33da88fc2UL, 0xd5a79147930aa725UL, 0x06ca6351e003826fUL, 0x142929670a0e6e70UL,
      0x27b70a8546d22ffcUL, 0x2e1b21385c26c926UL, 0x4d2c6dfc5ac42aedUL, 0x53380d139d95b3dfUL,
      0x650a73548baf63deUL, 0x766a0abb3c77b2a8UL, 0x81c2c92e47edaee6UL, 0x92722c851482353bUL,
      0xa2bfe8a14cf10364UL, 0xa81a664bbc423001UL, 0xc24b8b70d0f89791UL, 0xc76c51a30654be30UL,
      0xd192e819d6ef5218UL, 0xd69906245565a910UL, 0xf40e35855771202aUL, 0x106aa07032bbd1b8UL,
      0x19a4c116b8d2d0c8UL, 0x1e376c085141ab53UL, 0x2748774cdf8eeb99UL, 0x34b0bcb5e19b48a8UL,
      0x391c0cb3c5c95a63UL, 0x4ed8aa4ae3418acbUL, 0x5b9cca4f7763e373UL, 0x682e6ff3d6b2b8a3UL,
      0x748f82ee5defb2fcUL, 0x78a5636f43172f60UL, 0x84c87814a1f0ab72UL, 0x8cc702081a6439ecUL,
      0x90befffa23631e28UL, 0xa4506cebde82bde9UL, 0xbef9a3f7b2c67915UL, 0xc67178f2e372532bUL,
      0xca273eceea26619cUL, 0xd186b8c721c0c207UL, 0xeada7dd6cde0eb1eUL, 0xf57d4f7fee6ed178UL,
      0x06f067aa72176fbaUL, 0x0a637dc5a2c898a6UL, 0x113f9804bef90daeUL, 0x1b710b35131c471bUL,
      0x28db77f523047d84UL, 0x32caab7b40c72493UL, 0x3c9ebe0a15c9bebcUL, 0x431d67c49c100d4cUL,
      0x4cc5d4becb3e42b6UL, 0x597f299cfc657e2aUL, 0x5fcb6fab3ad6faecUL, 0x6c44198c4a475817UL};
    __constant ulong IV[8] = {
      0x6a09e667f3bcc908UL, 0xbb67ae8584caa73bUL, 0x3c6ef372fe94f82bUL, 0xa54ff53a5f1d36f1UL,
      0x510e527fade682d1UL, 0x9b05688c2b3e6c1fUL, 0x1f83d9abfb41bd6bUL, 0x5be0cd19137e2179UL};
    #elif defined(FK_SHA256)
    typedef uint word;
    #define WORD_BYTES 4
    #define ROUNDS 64
    #define BIG_SIGMA0(x) (rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22))
    #define BIG_SIGMA1(x) (rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25))
    #define SMALL_SIGMA0(x) (rotr(x, 7) ^ rotr(x, 18) ^ ((x) >> 3))
    #define SMALL_SIGMA1(x) (rotr(x, 17) ^ rotr(x, 19) ^ ((x) >> 10))
    __constant uint K[64] = {
      0x428a2f98U, 0x71374491U, 0xb5c0fbcfU, 0xe9b5dba5U, 0x3956c25bU, 0x59f111f1U, 0x923f82a4U,
      0xab1c5ed5U, 0xd807aa98U, 0x12835b01U, 0x243185beU, 0x550c7dc3U, 0x72be5d74U, 0x80deb1feU,
      0x9bdc06a7U, 0xc19bf174U, 0xe49b69c1U, 0xefbe4786U, 0x0fc19dc6U, 0x240ca1ccU, 0x2de92c6fU,
      0x4a7484aaU, 0x5cb0a9dcU, 0x76f988daU, 0x983e5152U, 0xa831c66dU, 0xb00327c8U, 0xbf597fc7U,
      0xc6e00bf3U, 0xd5a79147U, 0x06ca6351U, 0x14292967U, 0x27b70a85U, 0x2e1b2138U, 0x4d2c6dfcU,
      0x53380d13U, 0x650a7354U, 0x766a0abbU, 0x81c2c92eU, 0x92722c85U, 0xa2bfe8a1U, 0xa81a664bU,
      0xc24b8b70U, 0xc76c51a3U, 0xd192e819U, 0xd6990624U, 0xf40e3585U, 0x106aa070U, 0x19a4c116U,
      0x1e376c08U, 0x2748774cU, 0x34b0bcb5U, 0x391c0cb3U, 0x4ed8aa4aU, 0x5b9cca4fU, 0x682e6ff3U,
      0x748f82eeU, 0x78a5636fU, 0x84c87814U, 0x8cc70208U, 0x90befffaU, 0xa4506cebU, 0xbef9a3f7U,
      0xc67178f2U};
    __constant uint IV[8] = {
      0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU, 0x510e527fU, 0x9b05688cU, 0x1f83d9abU,
      0x5be0cd19U};
    #else
    #error "build with -D FK_SHA512 or -D FK_SHA256"
    #endif

    #define WORD_BITS (8 * WORD_BYTES)
    #define BLOCK_WORDS 16
    #define BLOCK_BYTES (BLOCK_WORDS * WORD_BYTES)
    #define DIGEST_WORDS 8
    #define DIGEST_BYTES (DIGEST_WORDS * WORD_BYTES)
    /* The length field is the last two words of the last block (128 bits for SHA-512, 64 for
       SHA-256): padding ends the message at word 14. */
    #define LENGTH_WORD 14
    #define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
    #define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
    #define IPAD ((word)0x3636363636363636UL)
    #define OPAD ((word)0x5c5c5c5c5c5c5c5cUL)

    static inline word rotr(word x, uint n) { return rotate(x, (word)(WORD_BITS - n)); }

    /* FIPS 180-4 6.2.2 / 6.4.2: one block, big-endian words, into the state. */
    static void compress(word *state, const word *block) {
      word w[16];
      #pragma unroll
      for (int i = 0; i < 16; i++) w[i] = block[i];
      word a = state[0], b = state[1], c = state[2], d = state[3];
      word e = state[4], f = state[5], g = state[6], h = state[7];
      #pragma unroll
      for (int i = 0; i < ROUNDS; i++) {
        word wi;
        if (i < 16) {
          wi = w[i];
        } else {
          wi = SMALL_SIGMA1(w[(i - 2) & 15]) + w[(i - 7) & 15] + SMALL_SIGMA0(w[(i - 15) & 15])
            + w[i & 15];
          w[i & 15] = wi;
        }
        word t1 = h + BIG_SIGMA1(e) + CH(e, f, g) + K[i] + wi;
        word t2 = BIG_SIGMA0(a) + MAJ(a, b, c);
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
      }
      state[0] += a; state[1] += b; state[2] += c; state[3] += d;
      state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }

    /* A message fed a byte at a time: the state, the block being filled, the bytes in it and
       the bytes of the whole message (a key block already compressed counts). */
    typedef struct {
      word state[DIGEST_WORDS];
      word block[BLOCK_WORDS];
      uint fill;
      ulong total;
    } hasher;

    static void hasher_start(hasher *s, const word *state, ulong total) {
      for (int i = 0; i < DIGEST_WORDS; i++) s->state[i] = state[i];
      for (int i = 0; i < BLOCK_WORDS; i++) s->block[i] = 0;
      s->fill = 0;
      s->total = total;
    }

    static void hasher_byte(hasher *s, uchar byte) {
      uint i = s->fill;
      s->block[i / WORD_BYTES] |= (word)byte << (8 * (WORD_BYTES - 1 - i % WORD_BYTES));
      s->fill = i + 1;
      s->total += 1;
      if (s->fill == BLOCK_BYTES) {
        compress(s->state, s->block);
        for (int j = 0; j < BLOCK_WORDS; j++) s->block[j] = 0;
        s->fill = 0;
      }
    }

    static void hasher_bytes(hasher *s, __global const uchar *bytes, uint count) {
      for (uint i = 0; i < count; i++) hasher_byte(s, bytes[i]);
    }

    /* FIPS 180-4 5.1: 0x80, zeros to word 14, the length in bits; the digest in s->state. */
    static void hasher_finish(hasher *s) {
      ulong bits = s->total * 8;
      uint i = s->fill;
      s->block[i / WORD_BYTES] |= (word)0x80 << (8 * (WORD_BYTES - 1 - i % WORD_BYTES));
      if (i + 1 > LENGTH_WORD * WORD_BYTES) {
        compress(s->state, s->block);
        for (int j = 0; j < BLOCK_WORDS; j++) s->block[j] = 0;
      }
    #ifdef FK_SHA512
      s->block[LENGTH_WORD] = 0;
      s->block[LENGTH_WORD + 1] = bits;
    #else
      s->block[LENGTH_WORD] = (uint)(bits >> 32);
      s->block[LENGTH_WORD + 1] = (uint)bits;
    #endif
      compress(s->state, s->block);
    }

    /* One HMAC of a digest-long message (U_{j-1}) from the pad states: the message and its
       padding fill one block after the key block, so each side is one compression. */
    static void hmac_digest(const word *ipad, const word *opad, word *u) {
      word block[BLOCK_WORDS];
      word state[DIGEST_WORDS];
      for (int i = 0; i < DIGEST_WORDS; i++) block[i] = u[i];
      block[DIGEST_WORDS] = (word)0x80 << (WORD_BITS - 8);
      for (int i = DIGEST_WORDS + 1; i < BLOCK_WORDS - 1; i++) block[i] = 0;
      block[BLOCK_WORDS - 1] = (word)((BLOCK_BYTES + DIGEST_BYTES) * 8);
      for (int i = 0; i < DIGEST_WORDS; i++) state[i] = ipad[i];
      compress(state, block);
      for (int i = 0; i < DIGEST_WORDS; i++) block[i] = state[i];
      for (int i = 0; i < DIGEST_WORDS; i++) state[i] = opad[i];
      compress(state, block);
      for (int i = 0; i < DIGEST_WORDS; i++) u[i] = state[i];
    }

    /* T of one password and salt (RFC 8018 5.2, one block), `iterations` rounds, into t. */
    static void pbkdf2(
        __global const uchar *password, uint passwordCount, __global const uchar *salt,
        uint saltCount, uint iterations, word *t) {
      word iv[DIGEST_WORDS];
      for (int i = 0; i < DIGEST_WORDS; i++) iv[i] = IV[i];

      /* RFC 2104: K0, the key hashed when longer than a block, zero-padded to a block. */
      word key[BLOCK_WORDS];
      for (int i = 0; i < BLOCK_WORDS; i++) key[i] = 0;
      hasher s;
      if (passwordCount > BLOCK_BYTES) {
        hasher_start(&s, iv, 0);
        hasher_bytes(&s, password, passwordCount);
        hasher_finish(&s);
        for (int i = 0; i < DIGEST_WORDS; i++) key[i] = s.state[i];
      } else {
        for (uint i = 0; i < passwordCount; i++) {
          key[i / WORD_BYTES] |= (word)password[i] << (8 * (WORD_BYTES - 1 - i % WORD_BYTES));
        }
      }
      word ipad[DIGEST_WORDS], opad[DIGEST_WORDS], block[BLOCK_WORDS];
      for (int i = 0; i < BLOCK_WORDS; i++) block[i] = key[i] ^ IPAD;
      for (int i = 0; i < DIGEST_WORDS; i++) ipad[i] = iv[i];
      compress(ipad, block);
      for (int i = 0; i < BLOCK_WORDS; i++) block[i] = key[i] ^ OPAD;
      for (int i = 0; i < DIGEST_WORDS; i++) opad[i] = iv[i];
      compress(opad, block);
      for (int i = 0; i < BLOCK_WORDS; i++) key[i] = 0;

      /* U_1 = HMAC(P, S || INT(1)): the inner hash continues after the key block. */
      hasher_start(&s, ipad, BLOCK_BYTES);
      hasher_bytes(&s, salt, saltCount);
      hasher_byte(&s, 0);
      hasher_byte(&s, 0);
      hasher_byte(&s, 0);
      hasher_byte(&s, 1);
      hasher_finish(&s);
      for (int i = 0; i < DIGEST_WORDS; i++) block[i] = s.state[i];
      block[DIGEST_WORDS] = (word)0x80 << (WORD_BITS - 8);
      for (int i = DIGEST_WORDS + 1; i < BLOCK_WORDS - 1; i++) block[i] = 0;
      block[BLOCK_WORDS - 1] = (word)((BLOCK_BYTES + DIGEST_BYTES) * 8);
      word u[DIGEST_WORDS];
      for (int i = 0; i < DIGEST_WORDS; i++) u[i] = opad[i];
      compress(u, block);
      for (int i = 0; i < DIGEST_WORDS; i++) t[i] = u[i];

      for (uint j = 1; j < iterations; j++) {
        hmac_digest(ipad, opad, u);
        for (int i = 0; i < DIGEST_WORDS; i++) t[i] ^= u[i];
      }
    }

    static void store_digest(__global uchar *out, const word *t) {
      for (int i = 0; i < DIGEST_BYTES; i++) {
        out[i] = (uchar)(t[i / WORD_BYTES] >> (8 * (WORD_BYTES - 1 - i % WORD_BYTES)));
      }
    }

    /* Work item i: T of password i (passwords[passwordEnds[i-1] ..< passwordEnds[i]]) with salt
       i, `iterations` rounds, its DIGEST_BYTES bytes at keys + i * DIGEST_BYTES. */
    __kernel void fk_pbkdf2_hmac(
        __global const uchar *passwords, __global const uint *passwordEnds,
        __global const uchar *salts, __global const uint *saltEnds, const uint iterations,
        const uint count, __global uchar *keys) {
      uint id = get_global_id(0);
      if (id >= count) return;
      uint passwordStart = id == 0 ? 0 : passwordEnds[id - 1];
      uint saltStart = id == 0 ? 0 : saltEnds[id - 1];
      word t[DIGEST_WORDS];
      pbkdf2(
        passwords + passwordStart, passwordEnds[id] - passwordStart, salts + saltStart,
        saltEnds[id] - saltStart, iterations, t);
      store_digest(keys + (size_t)id * DIGEST_BYTES, t);
    }

    #ifdef FK_SHA512
    /* HMAC-SHA512 (RFC 2104) under a key of at most a block (zero-padded words) of a message
       shorter than 112 bytes (words, zero past its end): one compression each side after the
       pad blocks, as the message and its padding fit one block. */
    static void hmac_short(const word *key, const word *message, uint messageBytes, word *tag) {
      word block[BLOCK_WORDS], state[DIGEST_WORDS], inner[DIGEST_WORDS];
      for (int i = 0; i < BLOCK_WORDS; i++) block[i] = key[i] ^ IPAD;
      for (int i = 0; i < DIGEST_WORDS; i++) state[i] = IV[i];
      compress(state, block);
      for (int i = 0; i < BLOCK_WORDS; i++) block[i] = message[i];
      block[messageBytes / 8] |= (word)0x80 << (8 * (7 - messageBytes % 8));
      block[BLOCK_WORDS - 1] = (word)((BLOCK_BYTES + messageBytes) * 8);
      compress(state, block);
      for (int i = 0; i < DIGEST_WORDS; i++) inner[i] = state[i];
      for (int i = 0; i < BLOCK_WORDS; i++) block[i] = key[i] ^ OPAD;
      for (int i = 0; i < DIGEST_WORDS; i++) state[i] = IV[i];
      compress(state, block);
      for (int i = 0; i < DIGEST_WORDS; i++) block[i] = inner[i];
      block[DIGEST_WORDS] = (word)0x80 << 56;
      for (int i = DIGEST_WORDS + 1; i < BLOCK_WORDS - 1; i++) block[i] = 0;
      block[BLOCK_WORDS - 1] = (word)((BLOCK_BYTES + DIGEST_BYTES) * 8);
      compress(state, block);
      for (int i = 0; i < DIGEST_WORDS; i++) tag[i] = state[i];
      for (int i = 0; i < BLOCK_WORDS; i++) block[i] = 0;
      for (int i = 0; i < DIGEST_WORDS; i++) inner[i] = 0;
    }

    /* Work item i: the BIP-39 seed of phrase i with salt i, then its SLIP-0010 Ed25519 nodes,
       all hardened: node 0 the master, I = HMAC-SHA512("ed25519 seed", seed); node n > 0 the
       child steps[2n-1] (2^31 set) of node steps[2n-2], I = HMAC-SHA512(c_par, 0x00 || k_par ||
       ser32(i)); k = I_L, c = I_R. Nodes are kept, key || chain code, in `nodes` (one row of
       nodeCount a work item); the 32-byte keys of the nodes `outputs` names go to keys (one row
       of outputCount a work item), and the seed to seeds when writeSeeds is set. */
    __kernel void fk_bip39_ed25519(
        __global const uchar *passwords, __global const uint *passwordEnds,
        __global const uchar *salts, __global const uint *saltEnds, const uint iterations,
        const uint count, __global const uint *steps, const uint nodeCount,
        __global const uint *outputs, const uint outputCount, const uint writeSeeds,
        __global uchar *seeds, __global uchar *keys, __global ulong *nodes) {
      uint id = get_global_id(0);
      if (id >= count) return;
      uint passwordStart = id == 0 ? 0 : passwordEnds[id - 1];
      uint saltStart = id == 0 ? 0 : saltEnds[id - 1];
      word seed[BLOCK_WORDS];
      for (int i = 0; i < BLOCK_WORDS; i++) seed[i] = 0;
      pbkdf2(
        passwords + passwordStart, passwordEnds[id] - passwordStart, salts + saltStart,
        saltEnds[id] - saltStart, iterations, seed);
      if (writeSeeds) store_digest(seeds + (size_t)id * DIGEST_BYTES, seed);

      __global ulong *row = nodes + (size_t)id * nodeCount * DIGEST_WORDS;
      word key[BLOCK_WORDS], message[BLOCK_WORDS], tag[DIGEST_WORDS];
      for (int i = 0; i < BLOCK_WORDS; i++) key[i] = 0;
      key[0] = 0x6564323535313920UL; /* "ed25519 " */
      key[1] = 0x7365656400000000UL; /* "seed" */
      hmac_short(key, seed, DIGEST_BYTES, tag);
      for (int i = 0; i < DIGEST_WORDS; i++) row[i] = tag[i];
      for (uint n = 1; n < nodeCount; n++) {
        __global const ulong *parent = row + (size_t)steps[2 * n - 2] * DIGEST_WORDS;
        /* The key: the parent's chain code (its words 4..7). The message: 0x00, the parent's
           key (words 0..3) one byte on, then the index's four bytes big-endian. */
        for (int i = 0; i < BLOCK_WORDS; i++) key[i] = 0;
        for (int i = 0; i < 4; i++) key[i] = parent[4 + i];
        for (int i = 0; i < BLOCK_WORDS; i++) message[i] = 0;
        message[0] = parent[0] >> 8;
        for (int i = 1; i < 4; i++) message[i] = parent[i] >> 8 | parent[i - 1] << 56;
        message[4] = parent[3] << 56 | (ulong)steps[2 * n - 1] << 24;
        hmac_short(key, message, 37, tag);
        for (int i = 0; i < DIGEST_WORDS; i++) row[(size_t)n * DIGEST_WORDS + i] = tag[i];
      }
      for (uint o = 0; o < outputCount; o++) {
        __global const ulong *node = row + (size_t)outputs[o] * DIGEST_WORDS;
        __global uchar *out = keys + ((size_t)id * outputCount + o) * 32;
        for (int i = 0; i < 32; i++) out[i] = (uchar)(node[i / 8] >> (8 * (7 - i % 8)));
      }
      for (int i = 0; i < BLOCK_WORDS; i++) {
        seed[i] = 0;
        key[i] = 0;
        message[i] = 0;
      }
      for (int i = 0; i < DIGEST_WORDS; i++) tag[i] = 0;
    }
    #endif
    """#
}

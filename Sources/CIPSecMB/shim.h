#ifndef FREEDOM_KEYS_CIPSECMB_SHIM_H
#define FREEDOM_KEYS_CIPSECMB_SHIM_H
/* Intel's Multi-Buffer Crypto library (libIPSec_MB, Debian libipsec-mb-dev) is x86-64 only and
   optional, so it is never linked: CryptoPrimitives opens it with dlopen and finds its entry
   points with dlsym. This header only lets Swift fill in IMB_JOB fields and call the manager's
   function pointers; there is no `link` line in the module map. Without the header (arm64,
   other distributions, the package not installed) the same functions exist and report that
   the library was not compiled in, so the Swift code needs no conditional compilation. */
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__linux__) && __has_include(<intel-ipsec-mb.h>)
#ifndef LINUX
#define LINUX 1 /* the header's own switch for its Linux layout attributes */
#endif
#define NO_COMPAT_IMB_API_053 1 /* no legacy macros such as SHA1, which clash with OpenSSL */
#include <intel-ipsec-mb.h>

/* IMB_VERSION_NUM of the header this was built against, 0 without it. */
static inline unsigned fk_imb_header_version(void) { return IMB_VERSION_NUM; }
static inline size_t fk_imb_job_byte_count(void) { return sizeof(IMB_JOB); }
/* The CPU features an AVX2 and an AVX-512 manager need, as IMB_FEATURE_* bits. */
static inline uint64_t fk_imb_avx2_cpu_flags(void) { return IMB_CPUFLAGS_AVX2; }
static inline uint64_t fk_imb_avx512_cpu_flags(void) { return IMB_CPUFLAGS_AVX512; }
/* Set when the library was built to clear its lanes and registers of data after each job. */
static inline uint64_t fk_imb_safe_data_flag(void) { return IMB_FEATURE_SAFE_DATA; }
static inline int fk_imb_manager_errno(const void *manager) {
  return ((const IMB_MGR *)manager)->imb_errno;
}

/* A zeroed job computing HMAC-SHA512 with a full 64-byte tag from precomputed pad states (the
   SHA-512 state words after one block of key ^ ipad and key ^ opad, in host byte order). */
static inline void fk_imb_job_prepare_hmac_sha512(
    void *job, const void *ipad_state, const void *opad_state) {
  IMB_JOB *j = (IMB_JOB *)job;
  *j = (IMB_JOB){0};
  j->cipher_mode = IMB_CIPHER_NULL;
  j->cipher_direction = IMB_DIR_ENCRYPT;
  j->chain_order = IMB_ORDER_HASH_CIPHER;
  j->hash_alg = IMB_AUTH_HMAC_SHA_512;
  j->hash_start_src_offset_in_bytes = 0;
  j->auth_tag_output_len_in_bytes = 64;
  j->u.HMAC._hashed_auth_key_xor_ipad = (const uint8_t *)ipad_state;
  j->u.HMAC._hashed_auth_key_xor_opad = (const uint8_t *)opad_state;
}

/* The same for HMAC-SHA256 with a full 32-byte tag (SHA-256 state words after one block). */
static inline void fk_imb_job_prepare_hmac_sha256(
    void *job, const void *ipad_state, const void *opad_state) {
  fk_imb_job_prepare_hmac_sha512(job, ipad_state, opad_state);
  IMB_JOB *j = (IMB_JOB *)job;
  j->hash_alg = IMB_AUTH_HMAC_SHA_256;
  j->auth_tag_output_len_in_bytes = 32;
}

/* The message a job authenticates and where its tag goes. */
static inline void fk_imb_job_set_message(
    void *job, const void *message, uint64_t length, void *tag) {
  IMB_JOB *j = (IMB_JOB *)job;
  j->src = (const uint8_t *)message;
  j->msg_len_to_hash_in_bytes = length;
  j->auth_tag_output = (uint8_t *)tag;
}

static inline int fk_imb_job_completed(const void *job) {
  return ((const IMB_JOB *)job)->status == IMB_STATUS_COMPLETED;
}

/* IMB_SUBMIT_HASH_BURST over `count` contiguous jobs; returns how many completed. */
static inline uint32_t fk_imb_submit_hmac_sha512_burst(void *manager, void *jobs, uint32_t count) {
  IMB_MGR *m = (IMB_MGR *)manager;
  return IMB_SUBMIT_HASH_BURST(m, (IMB_JOB *)jobs, count, IMB_AUTH_HMAC_SHA_512);
}

/* IMB_SUBMIT_HASH_BURST of HMAC-SHA256 jobs. */
static inline uint32_t fk_imb_submit_hmac_sha256_burst(void *manager, void *jobs, uint32_t count) {
  IMB_MGR *m = (IMB_MGR *)manager;
  return IMB_SUBMIT_HASH_BURST(m, (IMB_JOB *)jobs, count, IMB_AUTH_HMAC_SHA_256);
}

#else /* built without intel-ipsec-mb.h: the multi-buffer path reports itself unavailable */

static inline unsigned fk_imb_header_version(void) { return 0; }
static inline size_t fk_imb_job_byte_count(void) { return 0; }
static inline uint64_t fk_imb_avx2_cpu_flags(void) { return ~(uint64_t)0; }
static inline uint64_t fk_imb_avx512_cpu_flags(void) { return ~(uint64_t)0; }
static inline uint64_t fk_imb_safe_data_flag(void) { return ~(uint64_t)0; }
static inline int fk_imb_manager_errno(const void *manager) { (void)manager; return -1; }
static inline void fk_imb_job_prepare_hmac_sha512(
    void *job, const void *ipad_state, const void *opad_state) {
  (void)job; (void)ipad_state; (void)opad_state;
}
static inline void fk_imb_job_set_message(
    void *job, const void *message, uint64_t length, void *tag) {
  (void)job; (void)message; (void)length; (void)tag;
}
static inline void fk_imb_job_prepare_hmac_sha256(
    void *job, const void *ipad_state, const void *opad_state) {
  (void)job; (void)ipad_state; (void)opad_state;
}
static inline int fk_imb_job_completed(const void *job) { (void)job; return 0; }
static inline uint32_t fk_imb_submit_hmac_sha256_burst(void *manager, void *jobs, uint32_t count) {
  (void)manager; (void)jobs; (void)count;
  return 0;
}
static inline uint32_t fk_imb_submit_hmac_sha512_burst(void *manager, void *jobs, uint32_t count) {
  (void)manager; (void)jobs; (void)count;
  return 0;
}
#endif
#endif

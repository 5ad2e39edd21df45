/* curand_kernel.h: cuRAND's device API for cucc (our own header): the
 * generators a kernel keeps in its own state, compiled by cucc like the
 * program's code (cuRAND's host library is not part of cucc).
 *  - XORWOW (curandState, curandStateXORWOW_t), seeded as cuRAND documents
 *    it, with skipahead by subsequences of 2^67 and by offsets done with
 *    powers of its transition matrix (runtime/src/curand.c makes them once);
 *  - Philox4_32_10 (curandStatePhilox4_32_10_t), counter-based: subsequence
 *    and offset are the counter;
 *  - curand, curand4, curand_uniform(_double)(2,4), curand_normal(_double)
 *    (2,4) by Box-Muller, curand_log_normal(_double), and skipahead,
 *    skipahead_sequence.
 * Other generators (MRG32k3a, MTGP32, Sobol) and curand_poisson are not
 * provided: their types are unknown names at compile time. */
#ifndef CUCC_CURAND_KERNEL_H
#define CUCC_CURAND_KERNEL_H
#include "cuda_runtime.h"

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_PI_DOUBLE (3.1415926535897932)

typedef struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
} curandStateXORWOW_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandStateXORWOW_t curandState;

typedef struct curandStatePhilox4_32_10 {
  uint4 ctr, output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
} curandStatePhilox4_32_10_t;

#ifdef __cplusplus
extern "C" {
#endif
/* XORWOW's transition matrix to the power 2^k, k = 0..99: 160 rows (the
 * image of each state bit) of 5 words each, made once (runtime) */
__device__ __host__ const unsigned int *cu_curand_xorwow_powers(void);
#ifdef __cplusplus
}
#endif

#if defined(__CUCC_PARSE__)
/* ---- XORWOW ---- */
static __device__ inline unsigned int curand(curandStateXORWOW_t *s) {
  unsigned int t = s->v[0] ^ (s->v[0] >> 2);
  s->v[0] = s->v[1];
  s->v[1] = s->v[2];
  s->v[2] = s->v[3];
  s->v[3] = s->v[4];
  s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
  s->d += 362437;
  return s->v[4] + s->d;
}

/* the state times matrix power k: each set state bit adds its row */
static __device__ inline void cu_xorwow_apply(curandStateXORWOW_t *s, int k) {
  const unsigned int *m = cu_curand_xorwow_powers() + k * 800;
  unsigned int r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0;
  for (int i = 0; i < 160; i++)
    if (s->v[i >> 5] >> (i & 31) & 1) {
      const unsigned int *row = m + i * 5;
      r0 ^= row[0], r1 ^= row[1], r2 ^= row[2], r3 ^= row[3], r4 ^= row[4];
    }
  s->v[0] = r0, s->v[1] = r1, s->v[2] = r2, s->v[3] = r3, s->v[4] = r4;
}

static __device__ inline void skipahead(unsigned long long n, curandStateXORWOW_t *s) {
  s->d += 362437u * (unsigned int)n;
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) cu_xorwow_apply(s, k);
}

/* a subsequence is 2^67 numbers */
static __device__ inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *s) {
  for (int k = 67; n && k < 100; k++, n >>= 1)
    if (n & 1) cu_xorwow_apply(s, k);
}

static __device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                          unsigned long long offset, curandStateXORWOW_t *s) {
  unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u, s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  s->d = 6615241u + t1 + t0;
  s->v[0] = 123456789u + t0;
  s->v[1] = 362436069u ^ t0;
  s->v[2] = 521288629u + t1;
  s->v[3] = 88675123u ^ t1;
  s->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, s);
  skipahead(offset, s);
  s->boxmuller_flag = s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.0f;
  s->boxmuller_extra_double = 0.0;
}

/* ---- Philox4x32-10 ---- */
static __device__ inline uint4 cu_philox(uint4 c, uint2 k) {
  for (int r = 0; r < 10; r++) {
    if (r) k.x += 0x9E3779B9u, k.y += 0xBB67AE85u;
    unsigned long long p0 = (unsigned long long)0xD2511F53u * c.x, p1 = (unsigned long long)0xCD9E8D57u * c.z;
    uint4 n;
    n.x = (unsigned int)(p1 >> 32) ^ c.y ^ k.x;
    n.y = (unsigned int)p1;
    n.z = (unsigned int)(p0 >> 32) ^ c.w ^ k.y;
    n.w = (unsigned int)p0;
    c = n;
  }
  return c;
}

/* the 128-bit counter plus n */
static __device__ inline void cu_philox_add(curandStatePhilox4_32_10_t *s, unsigned long long n) {
  unsigned long long lo = ((unsigned long long)s->ctr.y << 32) | s->ctr.x, nl = lo + n;
  s->ctr.x = (unsigned int)nl;
  s->ctr.y = (unsigned int)(nl >> 32);
  if (nl < lo) {
    unsigned long long hi = (((unsigned long long)s->ctr.w << 32) | s->ctr.z) + 1;
    s->ctr.z = (unsigned int)hi;
    s->ctr.w = (unsigned int)(hi >> 32);
  }
}

static __device__ inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *s) {
  s->STATE += (unsigned int)(n & 3);
  n /= 4;
  if (s->STATE > 3) {
    n += 1;
    s->STATE -= 4;
  }
  cu_philox_add(s, n);
  s->output = cu_philox(s->ctr, s->key);
}

/* a subsequence is 2^64 counters: the counter's upper half */
static __device__ inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *s) {
  unsigned long long hi = ((((unsigned long long)s->ctr.w << 32) | s->ctr.z)) + n;
  s->ctr.z = (unsigned int)hi;
  s->ctr.w = (unsigned int)(hi >> 32);
  s->output = cu_philox(s->ctr, s->key);
}

static __device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                          unsigned long long offset, curandStatePhilox4_32_10_t *s) {
  s->ctr = make_uint4(0, 0, 0, 0);
  s->key = make_uint2((unsigned int)seed, (unsigned int)(seed >> 32));
  s->STATE = 0;
  s->boxmuller_flag = s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.0f;
  s->boxmuller_extra_double = 0.0;
  skipahead_sequence(subsequence, s);
  skipahead(offset, s);
}

static __device__ inline unsigned int curand(curandStatePhilox4_32_10_t *s) {
  unsigned int r = s->STATE == 0 ? s->output.x : s->STATE == 1 ? s->output.y : s->STATE == 2 ? s->output.z : s->output.w;
  if (++s->STATE == 4) {
    s->STATE = 0;
    cu_philox_add(s, 1);
    s->output = cu_philox(s->ctr, s->key);
  }
  return r;
}

static __device__ inline uint4 curand4(curandStatePhilox4_32_10_t *s) {
  uint4 r;
  r.x = curand(s);
  r.y = curand(s);
  r.z = curand(s);
  r.w = curand(s);
  return r;
}

/* ---- distributions, for both generators ---- */
static __device__ inline float cu_curand_uniform(unsigned int x) { return x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f; }
static __device__ inline double cu_curand_uniform_hq(unsigned int x, unsigned int y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + CURAND_2POW53_INV_DOUBLE / 2.0;
}
static __device__ inline float2 cu_curand_box_muller(unsigned int x, unsigned int y) {
  float u = x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2, v = y * CURAND_2POW32_INV_2PI + CURAND_2POW32_INV_2PI / 2;
  float s = sqrtf(-2.0f * logf(u));
  return make_float2(sinf(v) * s, cosf(v) * s);
}
static __device__ inline double2 cu_curand_box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0,
                                                              unsigned int y1) {
  double u = cu_curand_uniform_hq(x0, x1);
  unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
  double v = zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
  double s = sqrt(-2.0 * log(u));
  return make_double2(sin(v * CURAND_PI_DOUBLE) * s, cos(v * CURAND_PI_DOUBLE) * s);
}
#define CU_CURAND_DIST(S)                                                                                  \
  static __device__ inline float curand_uniform(S *s) { return cu_curand_uniform(curand(s)); }            \
  static __device__ inline double curand_uniform_double(S *s) {                                          \
    unsigned int x = curand(s), y = curand(s);                                                             \
    return cu_curand_uniform_hq(x, y);                                                                     \
  }                                                                                                        \
  static __device__ inline float curand_normal(S *s) {                                                    \
    if (s->boxmuller_flag) {                                                                               \
      s->boxmuller_flag = 0;                                                                               \
      return s->boxmuller_extra;                                                                           \
    }                                                                                                      \
    unsigned int x = curand(s), y = curand(s);                                                             \
    float2 v = cu_curand_box_muller(x, y);                                                                 \
    s->boxmuller_extra = v.y;                                                                              \
    s->boxmuller_flag = 1;                                                                                 \
    return v.x;                                                                                            \
  }                                                                                                        \
  static __device__ inline double curand_normal_double(S *s) {                                            \
    if (s->boxmuller_flag_double) {                                                                        \
      s->boxmuller_flag_double = 0;                                                                        \
      return s->boxmuller_extra_double;                                                                    \
    }                                                                                                      \
    unsigned int x0 = curand(s), x1 = curand(s), y0 = curand(s), y1 = curand(s);                         \
    double2 v = cu_curand_box_muller_double(x0, x1, y0, y1);                                               \
    s->boxmuller_extra_double = v.y;                                                                       \
    s->boxmuller_flag_double = 1;                                                                          \
    return v.x;                                                                                            \
  }                                                                                                        \
  static __device__ inline float2 curand_normal2(S *s) {                                                  \
    unsigned int x = curand(s), y = curand(s);                                                             \
    return cu_curand_box_muller(x, y);                                                                     \
  }                                                                                                        \
  static __device__ inline double2 curand_normal2_double(S *s) {                                          \
    unsigned int x0 = curand(s), x1 = curand(s), y0 = curand(s), y1 = curand(s);                         \
    return cu_curand_box_muller_double(x0, x1, y0, y1);                                                    \
  }                                                                                                        \
  static __device__ inline float curand_log_normal(S *s, float mean, float stddev) {                      \
    return expf(mean + stddev * curand_normal(s));                                                         \
  }                                                                                                        \
  static __device__ inline double curand_log_normal_double(S *s, double mean, double stddev) {            \
    return exp(mean + stddev * curand_normal_double(s));                                                   \
  }
CU_CURAND_DIST(curandStateXORWOW_t)
CU_CURAND_DIST(curandStatePhilox4_32_10_t)
#undef CU_CURAND_DIST
static __device__ inline float4 curand_uniform4(curandStatePhilox4_32_10_t *s) {
  uint4 x = curand4(s);
  return make_float4(cu_curand_uniform(x.x), cu_curand_uniform(x.y), cu_curand_uniform(x.z), cu_curand_uniform(x.w));
}
static __device__ inline float4 curand_normal4(curandStatePhilox4_32_10_t *s) {
  uint4 x = curand4(s);
  float2 a = cu_curand_box_muller(x.x, x.y), b = cu_curand_box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
static __device__ inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t *s) {
  uint4 x = curand4(s);
  return make_double2(cu_curand_uniform_hq(x.x, x.y), cu_curand_uniform_hq(x.z, x.w));
}
#endif /* __CUCC_PARSE__ */
#endif

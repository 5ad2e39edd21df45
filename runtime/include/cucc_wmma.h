/* cucc_wmma.h: the arithmetic of mma.h's warp matrix functions, for one
 * lane (included by cucc_dev.h: device C only). mma.h says which part of
 * a tile each lane holds; these copy a lane's part in and out of memory
 * and compute its part of D = A·B + C. Each is called per lane from a lane
 * loop (mma.h declares them as bodiless __cu_dev_* functions, which the
 * frontend calls by name).
 *
 * A lane's parts (mma.h): its row r of A (k values), the same ncol columns
 * of B as of C, and ncol accumulators, ncol at most 8. Products of half,
 * bf16 and tf32 (exact in float, as the tensor cores' are) are summed in
 * float as a tree (pairwise by halves of k), then added to C: a tensor
 * core adds a k-block's products at once, with no rounding between them;
 * a tree rounds log2(k) times on any path where k order rounded k times,
 * so it is the closer of the two, and it has no chain of k dependent adds.
 * Double's products are not exact: summed in k order from C, as a chain
 * of fma. 8-bit integers: in int, C added in 64 bits. */
#ifndef CUCC_WMMA_H
#define CUCC_WMMA_H
#include <float.h>
#include <stdint.h>
#include <string.h>

#define CU_WMMA_INL static inline __attribute__((always_inline))
/* the copies and products are not inlined at every call: a kernel calls
 * them a dozen times, in each version of each region (a kernel's C was
 * 100 KB and 5 s to compile with them inlined, 40 KB and 2 s without,
 * at the same speed within the noise) */
#define CU_WMMA_FN static __attribute__((noinline, unused))
/* the entry points the device C calls by name: inlined, so that what the
 * constants of a call decide (a fixed-size copy, a small shape's product)
 * is straight-line code in the lane loop, not a call per lane; what is
 * left (strided copies, the bigger products) is a call to a CU_WMMA_FN */
#define CU_WMMA_ENTRY static inline __attribute__((always_inline, unused))

/* dst[i * nj + j] = src[i * si + j * sj] (elements of `size` bytes), and
 * the reverse, for a lane's part of a tile at a leading dimension. A
 * lane's part is rows of contiguous elements (sj 1) of 16, 8, 4 or 2: each
 * row one fixed-size copy (vector moves), not a loop of runtime length */
#define CU_WMMA_COPY(SZ, T)                                                                               \
  CU_WMMA_INL void cu_wmma_ldr##SZ(T *d, const T *s, long long si, int ni, const int nj) {                \
    for (int i = 0; i < ni; i++) memcpy(d + i * nj, s + i * si, nj * sizeof(T));                          \
  }                                                                                                       \
  CU_WMMA_INL void cu_wmma_str##SZ(T *d, const T *s, long long si, int ni, const int nj) {                \
    for (int i = 0; i < ni; i++) memcpy(d + i * si, s + i * nj, nj * sizeof(T));                          \
  }                                                                                                       \
  CU_WMMA_FN void cu_wmma_ldg##SZ(T *d, const T *s, long long si, long long sj, int ni, int nj) {         \
    for (int i = 0; i < ni; i++)                                                                          \
      for (int j = 0; j < nj; j++) d[i * nj + j] = s[i * si + j * sj];                                    \
  }                                                                                                       \
  CU_WMMA_FN void cu_wmma_stg##SZ(T *d, const T *s, long long si, long long sj, int ni, int nj) {         \
    for (int i = 0; i < ni; i++)                                                                          \
      for (int j = 0; j < nj; j++) d[i * si + j * sj] = s[i * nj + j];                                    \
  }                                                                                                       \
  CU_WMMA_ENTRY void __cu_dev_wmma_ld##SZ(void *dst, const void *src, long long si, long long sj, int ni, \
                                           int nj) {                                                      \
    T *d = (T *)dst;                                                                                      \
    const T *s = (const T *)src;                                                                          \
    if (sj == 1 && nj == 16) cu_wmma_ldr##SZ(d, s, si, ni, 16);                                           \
    else if (sj == 1 && nj == 8) cu_wmma_ldr##SZ(d, s, si, ni, 8);                                        \
    else if (sj == 1 && nj == 4) cu_wmma_ldr##SZ(d, s, si, ni, 4);                                        \
    else if (sj == 1 && nj == 2) cu_wmma_ldr##SZ(d, s, si, ni, 2);                                        \
    else if (ni == 1 && nj <= 16)                                                                         \
      for (int j = 0; j < nj; j++) d[j] = s[j * sj]; /* (a column of A or of C: nj loads) */             \
    else cu_wmma_ldg##SZ(d, s, si, sj, ni, nj);                                                           \
  }                                                                                                       \
  CU_WMMA_ENTRY void __cu_dev_wmma_st##SZ(void *dst, const void *src, long long si, long long sj, int ni, \
                                           int nj) {                                                      \
    T *d = (T *)dst;                                                                                      \
    const T *s = (const T *)src;                                                                          \
    if (sj == 1 && nj == 8) cu_wmma_str##SZ(d, s, si, ni, 8);                                             \
    else if (sj == 1 && nj == 2) cu_wmma_str##SZ(d, s, si, ni, 2);                                        \
    else if (ni == 1 && nj <= 16)                                                                         \
      for (int j = 0; j < nj; j++) d[j * sj] = s[j];                                                      \
    else cu_wmma_stg##SZ(d, s, si, sj, ni, nj);                                                           \
  }
CU_WMMA_COPY(1, uint8_t)
CU_WMMA_COPY(2, uint16_t)
CU_WMMA_COPY(4, uint32_t)
CU_WMMA_COPY(8, uint64_t)
#undef CU_WMMA_COPY

/* operands to the type products are taken in */
CU_WMMA_INL float cu_wmma_bits_f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
CU_WMMA_INL uint32_t cu_wmma_f_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
/* binary16 -> float without branches (the lanes' loops vectorize): the
 * bits shifted into place are the value times 2^-112, subnormals included;
 * infinities and NaNs keep their all-ones exponent */
CU_WMMA_INL float cu_wmma_h2f(uint16_t h) {
  uint32_t e = h & 0x7fffu, m = e << 13;
  uint32_t r = cu_wmma_f_bits(cu_wmma_bits_f(m) * 0x1p112f);
  r = e >= 0x7c00u ? (0x7f800000u | m) : r;
  return cu_wmma_bits_f(r | (uint32_t)(h & 0x8000u) << 16);
}
CU_WMMA_INL float cu_wmma_bf2f(uint16_t h) { return cu_wmma_bits_f((uint32_t)h << 16); }
/* a tensor core reads the 19 upper bits of a tf32 operand */
CU_WMMA_INL float cu_wmma_tf2f(float f) { return cu_wmma_bits_f(cu_wmma_f_bits(f) & 0xffffe000u); }
CU_WMMA_INL float cu_wmma_f2f(float f) { return f; }
CU_WMMA_INL double cu_wmma_d2d(double f) { return f; }
CU_WMMA_INL int32_t cu_wmma_s8(int8_t v) { return v; }
CU_WMMA_INL int32_t cu_wmma_u8(uint8_t v) { return v; }
CU_WMMA_INL long long cu_wmma_i32(int32_t v) { return v; }

/* results: rounded to the accumulator's type; with satf, infinities
 * become the largest finite value and NaN zero (float, half), integers
 * clamp to int's range; without, an integer wraps as on a GPU */
CU_WMMA_INL float cu_wmma_sat_f(float v, int satf) {
  if (satf && v != v) return 0.0f;
  if (satf && v > FLT_MAX) return FLT_MAX;
  if (satf && v < -FLT_MAX) return -FLT_MAX;
  return v;
}
CU_WMMA_INL double cu_wmma_sat_d(double v, int satf) { (void)satf; return v; }
/* float -> binary16, to nearest even */
CU_WMMA_INL uint16_t cu_wmma_f2h(float f, int satf) {
  uint32_t x = cu_wmma_f_bits(f), sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 0xffu) {
    if (satf) return (uint16_t)(m ? 0 : sign | 0x7bffu);
    return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0u));
  }
  int E = (int)e - 112;
  uint32_t h;
  if (E <= 0) {
    if (E < -10) return (uint16_t)sign;
    m |= 0x800000u;
    uint32_t sh = (uint32_t)(14 - E), rem = m & ((1u << sh) - 1u), half = 1u << (sh - 1u);
    h = m >> sh;
    if (rem > half || (rem == half && (h & 1u))) h++;
    return (uint16_t)(sign | h);
  }
  if (E >= 31) h = 0x7c00u;
  else {
    uint32_t rem = m & 0x1fffu;
    h = ((uint32_t)E << 10) | (m >> 13);
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
  }
  if (satf && h >= 0x7c00u) h = 0x7bffu;
  return (uint16_t)(sign | h);
}
CU_WMMA_INL int32_t cu_wmma_sat_i(long long v, int satf) {
  if (satf) return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
  return (int32_t)(uint32_t)(unsigned long long)v;
}

/* The float micro-kernel (half, bf16, tf32 at ncol 8, k 16 or 8: every
 * float shape), in vectors of the C compiler (gcc and clang). Each
 * operand is converted once, 8 elements a time; the k products of an
 * element of D are summed as a tree of halves: p[i] + p[i + k/2], then
 * those by quarters, ... (the same tree as the plain loops below). A
 * row-major B has the columns in a vector: the tree is adds of whole
 * vectors. A column-major B has k in a vector: rows are paired by
 * shuffles so that every add of the tree is still one vector add (no
 * transposition). */
/* (vectors wider than the target's are split by the compiler; its ABI
 * warning is moot in static inline functions. Left off for the rest of
 * the file: gcc gives it where it expands an inlined call, in the
 * kernel's code) */
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float cu_wmma_f8 __attribute__((vector_size(32)));
typedef float cu_wmma_f16 __attribute__((vector_size(64)));
typedef uint32_t cu_wmma_v8u __attribute__((vector_size(32)));
typedef int32_t cu_wmma_v8i __attribute__((vector_size(32)));
typedef uint16_t cu_wmma_h8 __attribute__((vector_size(16)));
typedef short cu_wmma_s8v __attribute__((vector_size(16)));
#define cu_wmma_u2f8(u) ((cu_wmma_f8)(u))   /* the same bits */
/* 8 16-bit values widened to 32 bits, each in the low half (hi 0) or the
 * high half (hi 1) of its word: a shuffle with zeros (gcc 12 widened with
 * __builtin_convertvector in four instructions) */
CU_WMMA_INL cu_wmma_v8u cu_wmma_ld16x8(const uint16_t *p, const int hi) {
  cu_wmma_h8 h, z = {0};
  memcpy(&h, p, 16);
  if (hi) return (cu_wmma_v8u)__builtin_shufflevector(z, h, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
  return (cu_wmma_v8u)__builtin_shufflevector(h, z, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
}
/* 8 halves, 8 bf16, 8 tf32 operands as floats (cu_wmma_h2f's steps, in
 * vectors; one instruction where the CPU converts halves itself) */
CU_WMMA_INL cu_wmma_f8 cu_wmma_vh(const uint16_t *p) {
#if defined(__F16C__)
  cu_wmma_s8v h;
  memcpy(&h, p, 16);
  return __builtin_ia32_vcvtph2ps256(h);
#else
  cu_wmma_v8u h = cu_wmma_ld16x8(p, 0), e = h & 0x7fffu, m = e << 13, inf = (cu_wmma_v8u)((cu_wmma_v8i)e >= 0x7c00);
  cu_wmma_v8u r = (cu_wmma_v8u)(cu_wmma_u2f8(m) * 0x1p112f);
  cu_wmma_f8 f;
  r = (r & ~inf) | ((0x7f800000u | m) & inf);
  r |= (h & 0x8000u) << 16;
  memcpy(&f, &r, 32);
  return f;
#endif
}
CU_WMMA_INL cu_wmma_f8 cu_wmma_vbf(const uint16_t *p) { return cu_wmma_u2f8(cu_wmma_ld16x8(p, 1)); }
CU_WMMA_INL cu_wmma_f8 cu_wmma_vtf(const float *p) {
  cu_wmma_v8u u;
  memcpy(&u, p, 32);
  return cu_wmma_u2f8(u & 0xffffe000u);
}
/* (macros, not functions: gcc notes the ABI of a 64-byte vector argument
 * on a target without 64-byte vectors, even with -w) */
#define cu_wmma_cat(lo, hi) __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
/* rows j and j+1 of k = 16 products (x, y), each summed with its other
 * half: their eight 8-sums */
#define cu_wmma_half2(x, y)                                                                               \
  (__builtin_shufflevector(x, y, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23) +                \
   __builtin_shufflevector(x, y, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31))
/* two pairs of 8-sums (x: rows j, j+1, y: j+2, j+3) -> four 4-sums */
#define cu_wmma_half4(x, y)                                                                               \
  (__builtin_shufflevector(x, y, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27) +              \
   __builtin_shufflevector(x, y, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31))
/* four 4-sums twice -> eight 2-sums (s) -> the eight sums (s8) */
#define cu_wmma_half8(x, y, s, s8)                                                                        \
  do {                                                                                                    \
    s = __builtin_shufflevector(x, y, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29) +         \
        __builtin_shufflevector(x, y, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);        \
    s8 = __builtin_shufflevector(s, s, 0, 2, 4, 6, 8, 10, 12, 14) +                                       \
         __builtin_shufflevector(s, s, 1, 3, 5, 7, 9, 11, 13, 15);                                        \
  } while (0)
/* the eight sums of k products (no C) for a lane; V converts 8 operands */
#define CU_WMMA_FAST(NAME, TA, V)                                                                         \
  CU_WMMA_INL cu_wmma_f8 cu_wmma_fast_##NAME(const TA *a, const TA *b, const int k, const int bcol) {     \
    cu_wmma_f8 a0 = V(a), a1 = k == 16 ? V(a + 8) : a0;                                                   \
    if (!bcol) {                                                                                          \
      cu_wmma_f8 p[16];                                                                                   \
      for (int kk = 0; kk < k; kk++) p[kk] = (kk < 8 ? a0[kk] : a1[kk - 8]) * V(b + kk * 8);             \
      for (int h = k / 2; h > 0; h /= 2)                                                                  \
        for (int i = 0; i < h; i++) p[i] += p[i + h];                                                     \
      return p[0];                                                                                        \
    }                                                                                                     \
    cu_wmma_f16 q[4];                                                                                     \
    if (k == 16) {                                                                                        \
      cu_wmma_f16 av = cu_wmma_cat(a0, a1), p[8];                                                         \
      for (int j = 0; j < 8; j++) p[j] = av * cu_wmma_cat(V(b + j * 16), V(b + j * 16 + 8));              \
      for (int j = 0; j < 4; j++) q[j] = cu_wmma_half2(p[2 * j], p[2 * j + 1]);                           \
    } else                                                                                                \
      for (int j = 0; j < 4; j++) q[j] = cu_wmma_cat(a0 * V(b + j * 16), a0 * V(b + j * 16 + 8));        \
    cu_wmma_f16 r0 = cu_wmma_half4(q[0], q[1]), r1 = cu_wmma_half4(q[2], q[3]), s2;                     \
    cu_wmma_f8 s1;                                                                                        \
    cu_wmma_half8(r0, r1, s2, s1);                                                                        \
    return s1;                                                                                            \
  }
CU_WMMA_FAST(h, uint16_t, cu_wmma_vh)
CU_WMMA_FAST(bf, uint16_t, cu_wmma_vbf)
CU_WMMA_FAST(tf, float, cu_wmma_vtf)
#undef CU_WMMA_FAST
/* C as 8 floats, and D stored from 8 floats: float, or half (rounded to
 * nearest even, as cu_wmma_f2h: vcvtps2ph where the CPU has F16C, a NaN
 * made cu_wmma_f2h's quiet NaN). 0: not done here (satf, or no F16C):
 * the caller rounds element by element */
CU_WMMA_INL cu_wmma_f8 cu_wmma_vc_f(const float *c) {
  cu_wmma_f8 v;
  memcpy(&v, c, 32);
  return v;
}
CU_WMMA_INL cu_wmma_f8 cu_wmma_vc_h(const uint16_t *c) { return cu_wmma_vh(c); }
CU_WMMA_INL int cu_wmma_vd_f(float *d, const cu_wmma_f8 *v, int satf) {
  if (satf) return 0;
  memcpy(d, v, 32);
  return 1;
}
CU_WMMA_INL int cu_wmma_vd_h(uint16_t *d, const cu_wmma_f8 *v, int satf) {
#if defined(__F16C__)
  cu_wmma_h8 h;
  cu_wmma_s8v r = __builtin_ia32_vcvtps2ph256(*v, 0);
  if (satf) return 0;
  memcpy(&h, &r, 16);
  h &= ~((cu_wmma_h8)((h & 0x7fffu) > 0x7c00u) & 0x1ffu);   /* a NaN: its payload cleared */
  memcpy(d, &h, 16);
  return 1;
#else
  (void)d, (void)v, (void)satf;
  return 0;
#endif
}

/* 8-bit integers at ncol 8, k 16: the products in 32-bit vectors and the
 * k products of each element summed exactly (any order: 16 products of
 * 8-bit values cannot overflow an int), by the float path's tree */
typedef int32_t cu_wmma_i16 __attribute__((vector_size(64)));
typedef char cu_wmma_c16 __attribute__((vector_size(16)));
typedef signed char cu_wmma_s8c __attribute__((vector_size(16)));
typedef unsigned char cu_wmma_u8c __attribute__((vector_size(16)));
/* 8 bytes widened to 8 ints, sign- or zero-extended (gcc 12 made
 * __builtin_convertvector of bytes scalar) */
#if defined(__AVX2__)
typedef uint64_t cu_wmma_u64x2 __attribute__((vector_size(16)));
CU_WMMA_INL cu_wmma_v8i cu_wmma_wide8(const void *p, const int sign) {
  uint64_t u;
  memcpy(&u, p, 8);
  cu_wmma_c16 x = (cu_wmma_c16)(cu_wmma_u64x2){u, 0};
#if defined(__clang__)
  cu_wmma_s8c sx = (cu_wmma_s8c)x;
  cu_wmma_u8c ux = (cu_wmma_u8c)x;
  if (sign) return __builtin_convertvector(__builtin_shufflevector(sx, sx, 0, 1, 2, 3, 4, 5, 6, 7), cu_wmma_v8i);
  return __builtin_convertvector(__builtin_shufflevector(ux, ux, 0, 1, 2, 3, 4, 5, 6, 7), cu_wmma_v8i);
#else
  if (sign) return (cu_wmma_v8i)__builtin_ia32_pmovsxbd256(x);
  return (cu_wmma_v8i)__builtin_ia32_pmovzxbd256(x);
#endif
}
#define CU_WMMA_IFAST(NAME, SIGN)                                                                         \
  CU_WMMA_INL cu_wmma_v8i cu_wmma_ifast_##NAME(const void *a_, const void *b_, const int bcol) {          \
    const char *a = (const char *)a_, *b = (const char *)b_;                                              \
    cu_wmma_v8i a0 = cu_wmma_wide8(a, SIGN), a1 = cu_wmma_wide8(a + 8, SIGN), s = {0}, t[8];              \
    cu_wmma_i16 q[4], r0, r1, s2;                                                                         \
    if (!bcol) {                                                                                          \
      for (int kk = 0; kk < 16; kk++) s += (kk < 8 ? a0[kk] : a1[kk - 8]) * cu_wmma_wide8(b + kk * 8, SIGN); \
      return s;                                                                                           \
    }                                                                                                     \
    for (int j = 0; j < 8; j++)                                                                           \
      t[j] = a0 * cu_wmma_wide8(b + j * 16, SIGN) + a1 * cu_wmma_wide8(b + j * 16 + 8, SIGN);             \
    for (int j = 0; j < 4; j++) q[j] = cu_wmma_cat(t[2 * j], t[2 * j + 1]);                               \
    r0 = cu_wmma_half4(q[0], q[1]);                                                                       \
    r1 = cu_wmma_half4(q[2], q[3]);                                                                       \
    cu_wmma_half8(r0, r1, s2, s);                                                                         \
    return s;                                                                                             \
  }
CU_WMMA_IFAST(s8, 1)
CU_WMMA_IFAST(u8, 0)
#define CU_WMMA_HAS_s8 1
#define CU_WMMA_HAS_u8 1
#else
#define CU_WMMA_HAS_s8 0
#define CU_WMMA_HAS_u8 0
#define cu_wmma_ifast_s8 cu_wmma_ifast_none
#define cu_wmma_ifast_u8 cu_wmma_ifast_none
#endif
#undef CU_WMMA_IFAST
CU_WMMA_INL cu_wmma_v8i cu_wmma_ifast_none(const void *a, const void *b, int bcol) {
  (void)a, (void)b, (void)bcol;
  return (cu_wmma_v8i){0};
}
/* (for the types without one: never called) */
CU_WMMA_INL cu_wmma_f8 cu_wmma_fast_none(const void *a, const void *b, int k, int bcol) {
  (void)a, (void)b, (void)k, (void)bcol;
  return (cu_wmma_f8){0};
}
/* (SSE2 alone has no 16-bit shuffles: there gcc made the widening of half
 * and bf16 scalar, 3 to 5 times slower than the plain loops below) */
#if defined(__AVX2__)
#define CU_WMMA_HAS_h 1
#define CU_WMMA_HAS_bf 1
#else
#define CU_WMMA_HAS_h 0
#define CU_WMMA_HAS_bf 0
#endif
#define CU_WMMA_HAS_tf 1
#define CU_WMMA_HAS_none 0

/* double at 8x8x4 (a lane's 2 columns): d[j] = c[j] + a[0]·b[0][j] + ...
 * in k order, each step an fma (written as one: not left to contraction,
 * which -fmad=false turns off and SLP vectorization lost: the plain loop
 * below rounded some products before adding them); the two columns in one
 * vector where the CPU has fma. B is b[kk * 2 + j], or with bcol
 * b[j * 4 + kk] (its two columns paired by a shuffle). */
typedef double cu_wmma_d2 __attribute__((vector_size(16)));
typedef double cu_wmma_d4 __attribute__((vector_size(32)));
CU_WMMA_INL void cu_wmma_dmma(double *d, const double *a, const double *b, const double *c, const int bcol) {
  cu_wmma_d2 s, bk[4];
  cu_wmma_d4 av, b0, b1;
  memcpy(&s, c, 16);
  memcpy(&av, a, 32);
  if (bcol) {
    memcpy(&b0, b, 32);
    memcpy(&b1, b + 4, 32);
    cu_wmma_d4 lo = __builtin_shufflevector(b0, b1, 0, 4, 2, 6), hi = __builtin_shufflevector(b0, b1, 1, 5, 3, 7);
    bk[0] = __builtin_shufflevector(lo, lo, 0, 1);   /* (unpcklpd, unpckhpd, the 128-bit halves) */
    bk[1] = __builtin_shufflevector(hi, hi, 0, 1);
    bk[2] = __builtin_shufflevector(lo, lo, 2, 3);
    bk[3] = __builtin_shufflevector(hi, hi, 2, 3);
  } else
    memcpy(bk, b, 64);
  for (int kk = 0; kk < 4; kk++) {
#if defined(__FMA__) && (defined(__x86_64__) || defined(__i386__))
    s = __builtin_ia32_vfmaddpd((cu_wmma_d2){av[kk], av[kk]}, bk[kk], s);
#else
    s[0] = __builtin_fma(av[kk], bk[kk][0], s[0]);
    s[1] = __builtin_fma(av[kk], bk[kk][1], s[1]);
#endif
  }
  memcpy(d, &s, 16);
}

/* d = a·b + c for one lane: TA the operands' storage, CA their value as
 * P (the sum's type), TC/CC and TD/CD the accumulators' storage and
 * conversions. B is k-major (b[kk * ncol + j], from a row-major B) or,
 * with bcol, column-major (b[j * k + kk], from a column-major B, which
 * loads as ncol contiguous runs). The operands are converted in one flat
 * loop each (it vectorizes whatever the layout), multiplied, and the k
 * products of each element of D summed as a tree (halves added, then
 * quarters ...), then added to C: the same tree for either layout of B,
 * vectorized over the columns for a row-major B and over k for a
 * column-major one, with no transposition and no chain of k dependent
 * adds. TREE 0 (double): the products added one by one in k order from
 * C, as fma would (double's products are not exact, so the order shows).
 * INT: the sum in int (16 products of 8-bit values cannot overflow it),
 * C added in 64 bits. */
#define CU_WMMA_MMA(NAME, TA, CA, P, INT, TREE, FAST, IFAST, TC, CC, VC, TD, CD, VD, INL)              \
  CU_WMMA_INL void cu_wmma_mma_##NAME(void *d_, const void *a_, const void *b_, const void *c_, const int k, \
                                      const int ncol, const int bcol, int satf) {                         \
    TD *d = (TD *)d_;                                                                                     \
    const TA *a = (const TA *)a_, *b = (const TA *)b_;                                                    \
    const TC *c = (const TC *)c_;                                                                         \
    P av[16], bv[128], s[8];                                                                              \
    if (CU_WMMA_HAS_##FAST && ncol == 8 && (k == 16 || k == 8)) {                                       \
      cu_wmma_f8 v = cu_wmma_fast_##FAST(a_, b_, k, bcol) + cu_wmma_vc_##VC(c_);                          \
      if (!cu_wmma_vd_##VD(d_, &v, satf))                                                                  \
        for (int j = 0; j < 8; j++) d[j] = CD(v[j], satf);                                                \
      return;                                                                                             \
    }                                                                                                     \
    if (CU_WMMA_HAS_##IFAST && ncol == 8 && k == 16) {                                                  \
      cu_wmma_v8i v = cu_wmma_ifast_##IFAST(a_, b_, bcol);                                                \
      for (int j = 0; j < 8; j++) d[j] = CD((long long)v[j] + CC(c[j]), satf);                            \
      return;                                                                                             \
    }                                                                                                     \
    if (!TREE && k == 4 && ncol == 2) {                                                                   \
      cu_wmma_dmma((double *)d_, (const double *)a_, (const double *)b_, (const double *)c_, bcol);      \
      return;                                                                                             \
    }                                                                                                     \
    if (!TREE) { /* (straight from the operands: staged in arrays, they were reloaded as vectors  \
                    before their stores had landed) */                                                    \
      for (int j = 0; j < ncol; j++) s[j] = (P)CC(c[j]);                                                  \
      for (int kk = 0; kk < k; kk++)                                                                      \
        for (int j = 0; j < ncol; j++) s[j] += CA(a[kk]) * CA(b[bcol ? j * k + kk : kk * ncol + j]);      \
      for (int j = 0; j < ncol; j++) d[j] = CD(s[j], satf);                                               \
      return;                                                                                             \
    }                                                                                                     \
    for (int i = 0; i < k; i++) av[i] = CA(a[i]);                                                         \
    for (int i = 0; i < k * ncol; i++) bv[i] = CA(b[i]);                                                  \
    if (bcol) {                                                                                           \
      for (int j = 0; j < ncol; j++)                                                                      \
        for (int kk = 0; kk < k; kk++) bv[j * k + kk] *= av[kk];                                          \
      for (int h = k / 2; h > 0; h /= 2)                                                                  \
        for (int j = 0; j < ncol; j++)                                                                    \
          for (int kk = 0; kk < h; kk++) bv[j * k + kk] += bv[j * k + kk + h];                            \
      for (int j = 0; j < ncol; j++) s[j] = bv[j * k];                                                    \
    } else {                                                                                              \
      for (int kk = 0; kk < k; kk++)                                                                      \
        for (int j = 0; j < ncol; j++) bv[kk * ncol + j] *= av[kk];                                       \
      for (int h = k / 2; h > 0; h /= 2)                                                                  \
        for (int kk = 0; kk < h; kk++)                                                                    \
          for (int j = 0; j < ncol; j++) bv[kk * ncol + j] += bv[(kk + h) * ncol + j];                    \
      for (int j = 0; j < ncol; j++) s[j] = bv[j];                                                        \
    }                                                                                                     \
    for (int j = 0; j < ncol; j++)                                                                        \
      d[j] = INT ? CD((long long)s[j] + CC(c[j]), satf) : CD(s[j] + (P)CC(c[j]), satf);                 \
  }                                                                                                       \
  /* one body per shape, each with its constants (fully unrolled) */                                      \
  CU_WMMA_FN void cu_wmma_mmaf_##NAME(void *d, const void *a, const void *b, const void *c, int k,        \
                                      int ncol, int bcol, int satf) {                                     \
    if (k == 16 && ncol == 8 && bcol) cu_wmma_mma_##NAME(d, a, b, c, 16, 8, 1, satf);                     \
    else if (k == 16 && ncol == 8) cu_wmma_mma_##NAME(d, a, b, c, 16, 8, 0, satf);                        \
    else if (k == 8 && ncol == 8 && bcol) cu_wmma_mma_##NAME(d, a, b, c, 8, 8, 1, satf);                  \
    else if (k == 8 && ncol == 8) cu_wmma_mma_##NAME(d, a, b, c, 8, 8, 0, satf);                          \
    else if (k == 4 && ncol == 2 && bcol) cu_wmma_mma_##NAME(d, a, b, c, 4, 2, 1, satf);                  \
    else if (k == 4 && ncol == 2) cu_wmma_mma_##NAME(d, a, b, c, 4, 2, 0, satf);                          \
    else cu_wmma_mma_##NAME(d, a, b, c, k, ncol, bcol, satf);                                             \
  }                                                                                                       \
  /* a shape INL says is small: inlined in the lane loop */                                              \
  CU_WMMA_ENTRY void __cu_dev_wmma_mma_##NAME(void *d, const void *a, const void *b, const void *c, int k, \
                                              int ncol, int bcol, int satf) {                             \
    if (INL) cu_wmma_mma_##NAME(d, a, b, c, k, ncol, bcol, satf);                                         \
    else cu_wmma_mmaf_##NAME(d, a, b, c, k, ncol, bcol, satf);                                            \
  }
CU_WMMA_MMA(h_ff, uint16_t, cu_wmma_h2f, float, 0, 1, h, none, float, cu_wmma_f2f, f, float, cu_wmma_sat_f, f, 0)
CU_WMMA_MMA(h_fh, uint16_t, cu_wmma_h2f, float, 0, 1, h, none, uint16_t, cu_wmma_h2f, h, float, cu_wmma_sat_f, f, 0)
CU_WMMA_MMA(h_hf, uint16_t, cu_wmma_h2f, float, 0, 1, h, none, float, cu_wmma_f2f, f, uint16_t, cu_wmma_f2h, h, 0)
CU_WMMA_MMA(h_hh, uint16_t, cu_wmma_h2f, float, 0, 1, h, none, uint16_t, cu_wmma_h2f, h, uint16_t, cu_wmma_f2h, h, 0)
CU_WMMA_MMA(bf_ff, uint16_t, cu_wmma_bf2f, float, 0, 1, bf, none, float, cu_wmma_f2f, f, float, cu_wmma_sat_f, f, 0)
CU_WMMA_MMA(tf_ff, float, cu_wmma_tf2f, float, 0, 1, tf, none, float, cu_wmma_f2f, f, float, cu_wmma_sat_f, f, k == 8)
CU_WMMA_MMA(d_dd, double, cu_wmma_d2d, double, 0, 0, none, none, double, cu_wmma_d2d, f, double, cu_wmma_sat_d, f,
            k == 4 && ncol == 2)
CU_WMMA_MMA(s8_ii, int8_t, cu_wmma_s8, int32_t, 1, 1, none, s8, int32_t, cu_wmma_i32, f, int32_t, cu_wmma_sat_i, f, 0)
CU_WMMA_MMA(u8_ii, uint8_t, cu_wmma_u8, int32_t, 1, 1, none, u8, int32_t, cu_wmma_i32, f, int32_t, cu_wmma_sat_i, f, 0)
#undef CU_WMMA_MMA
#undef CU_WMMA_INL
#undef CU_WMMA_FN
#endif

/* cucc_wmma.h: the arithmetic of mma.h's warp matrix functions, for one
 * lane (included by cucc_dev.h: device C only). mma.h says which part of
 * a tile each lane holds; these copy a lane's part in and out of memory
 * and compute its part of D = A·B + C. Each is called per lane from a lane
 * loop (mma.h declares them as bodiless __cu_dev_* functions, which the
 * frontend calls by name).
 *
 * A lane's parts (mma.h): its row r of A (k values), the same ncol columns
 * of B as of C, and ncol accumulators, ncol at most 8. Products are summed
 * in k order from C's value, in float for
 * half, bf16 and tf32 (whose products are exact in float, as the tensor
 * cores' are), in double for double, in int for 8-bit integers (with C
 * added in 64 bits). */
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

/* dst[i * nj + j] = src[i * si + j * sj] (elements of `size` bytes), and
 * the reverse, for a lane's part of a tile at a leading dimension */
#define CU_WMMA_COPY(SZ, T)                                                                               \
  CU_WMMA_FN void __cu_dev_wmma_ld##SZ(void *dst, const void *src, long long si, long long sj, int ni,   \
                                        int nj) {                                                         \
    T *d = (T *)dst;                                                                                      \
    const T *s = (const T *)src;                                                                          \
    for (int i = 0; i < ni; i++)                                                                          \
      for (int j = 0; j < nj; j++) d[i * nj + j] = s[i * si + j * sj];                                    \
  }                                                                                                       \
  CU_WMMA_FN void __cu_dev_wmma_st##SZ(void *dst, const void *src, long long si, long long sj, int ni,   \
                                        int nj) {                                                         \
    T *d = (T *)dst;                                                                                      \
    const T *s = (const T *)src;                                                                          \
    for (int i = 0; i < ni; i++)                                                                          \
      for (int j = 0; j < nj; j++) d[i * si + j * sj] = s[i * nj + j];                                    \
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

/* d = a·b + c for one lane: TA the operands' storage, CA their value as
 * P (the sum's type), TC/CC and TD/CD the accumulators' storage and
 * conversions, INT: the products summed from zero (in int: 16 products of
 * 8-bit values cannot overflow it), c added after, in 64 bits (otherwise
 * the sum starts at c). B is k-major (b[kk * ncol + j], from a row-major
 * B) or, with bcol, column-major (b[j * k + kk], from a column-major B,
 * which loads as ncol contiguous runs); converted to k-major floats, so
 * that each k is a run of ncol multiply-adds, which vectorizes (dot
 * products per column, summed pairwise, were half as fast). The operands
 * are converted first, each loop on its own, so that both vectorize
 * (converting inside the multiply-add loop kept it scalar). */
#define CU_WMMA_MMA(NAME, TA, CA, P, INT, TC, CC, TD, CD)                                                 \
  CU_WMMA_INL void cu_wmma_mma_##NAME(void *d_, const void *a_, const void *b_, const void *c_, const int k, \
                                      const int ncol, const int bcol, int satf) {                         \
    TD *d = (TD *)d_;                                                                                     \
    const TA *a = (const TA *)a_, *b = (const TA *)b_;                                                    \
    const TC *c = (const TC *)c_;                                                                         \
    P av[16], bv[128], s[8];                                                                              \
    for (int i = 0; i < k; i++) av[i] = CA(a[i]);                                                         \
    if (bcol)                                                                                             \
      for (int kk = 0; kk < k; kk++)                                                                      \
        for (int j = 0; j < ncol; j++) bv[kk * ncol + j] = CA(b[j * k + kk]);                             \
    else                                                                                                  \
      for (int i = 0; i < k * ncol; i++) bv[i] = CA(b[i]);                                                \
    for (int j = 0; j < ncol; j++) s[j] = INT ? 0 : (P)CC(c[j]);                                           \
    for (int kk = 0; kk < k; kk++)                                                                        \
      for (int j = 0; j < ncol; j++) s[j] += av[kk] * bv[kk * ncol + j];                                  \
    for (int j = 0; j < ncol; j++) d[j] = INT ? CD((long long)s[j] + CC(c[j]), satf) : CD(s[j], satf);     \
  }                                                                                                       \
  /* one body per shape, each with its constants (fully unrolled) */                                      \
  CU_WMMA_FN void __cu_dev_wmma_mma_##NAME(void *d, const void *a, const void *b, const void *c, int k,   \
                                           int ncol, int bcol, int satf) {                                \
    if (k == 16 && ncol == 8 && bcol) cu_wmma_mma_##NAME(d, a, b, c, 16, 8, 1, satf);                     \
    else if (k == 16 && ncol == 8) cu_wmma_mma_##NAME(d, a, b, c, 16, 8, 0, satf);                        \
    else if (k == 8 && ncol == 8 && bcol) cu_wmma_mma_##NAME(d, a, b, c, 8, 8, 1, satf);                  \
    else if (k == 8 && ncol == 8) cu_wmma_mma_##NAME(d, a, b, c, 8, 8, 0, satf);                          \
    else cu_wmma_mma_##NAME(d, a, b, c, k, ncol, bcol, satf);                                             \
  }
CU_WMMA_MMA(h_ff, uint16_t, cu_wmma_h2f, float, 0, float, cu_wmma_f2f, float, cu_wmma_sat_f)
CU_WMMA_MMA(h_fh, uint16_t, cu_wmma_h2f, float, 0, uint16_t, cu_wmma_h2f, float, cu_wmma_sat_f)
CU_WMMA_MMA(h_hf, uint16_t, cu_wmma_h2f, float, 0, float, cu_wmma_f2f, uint16_t, cu_wmma_f2h)
CU_WMMA_MMA(h_hh, uint16_t, cu_wmma_h2f, float, 0, uint16_t, cu_wmma_h2f, uint16_t, cu_wmma_f2h)
CU_WMMA_MMA(bf_ff, uint16_t, cu_wmma_bf2f, float, 0, float, cu_wmma_f2f, float, cu_wmma_sat_f)
CU_WMMA_MMA(tf_ff, float, cu_wmma_tf2f, float, 0, float, cu_wmma_f2f, float, cu_wmma_sat_f)
CU_WMMA_MMA(d_dd, double, cu_wmma_d2d, double, 0, double, cu_wmma_d2d, double, cu_wmma_sat_d)
CU_WMMA_MMA(s8_ii, int8_t, cu_wmma_s8, int32_t, 1, int32_t, cu_wmma_i32, int32_t, cu_wmma_sat_i)
CU_WMMA_MMA(u8_ii, uint8_t, cu_wmma_u8, int32_t, 1, int32_t, cu_wmma_i32, int32_t, cu_wmma_sat_i)
#undef CU_WMMA_MMA
#undef CU_WMMA_INL
#undef CU_WMMA_FN
#endif

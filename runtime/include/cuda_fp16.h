/* cuda_fp16.h: CUDA's half precision (our own header): __half, __half2 and
 * the functions of CUDA 12/13's cuda_fp16.h, in host and device code.
 * A __half holds IEEE binary16 bits.
 *  - Conversions round as their names say (_rn to nearest even, _rz toward
 *    zero, _rd down, _ru up), each in one step from its source: a double,
 *    a 64-bit integer and a float all round straight to half, never twice.
 *    To integers: saturated to the type's range, NaN to 0 (64-bit types:
 *    0x8000000000000000), as CUDA documents them.
 *  - Arithmetic is done in float and rounded once to half: a float holds
 *    2 x 11 + 2 bits, so + - * / and sqrt rounded to float and then to
 *    half give the correctly rounded half result a GPU's half units
 *    compute. fma: the product of two halves is exact in double, the sum
 *    too unless one addend is negligible, which then decides only the
 *    direction of the rounding (__cu_fma16).
 *  - NaN results are the canonical NaN 0x7fff, as a GPU's; __habs and
 *    __hneg only change the sign bit.
 *  - The math functions (hexp, hsin...) compute in float (the device's
 *    float functions, within 2 ulp of float) and round to half.
 * cucc_fp16_ops.h holds what __half and __nv_bfloat16 (cuda_bf16.h) share.
 * Shuffles of a __half and a __half2 move their bits (the frontend
 * shuffles a 2- or 4-byte record as an integer: cucc_fp16_ops.h).
 * Not as in CUDA: a __half converts implicitly only to float (CUDA also
 * converts to each integer type and bool; explicit casts to them work
 * here through float). */
#ifndef CUCC_CUDA_FP16_H
#define CUCC_CUDA_FP16_H
#include "cuda_runtime.h"

/* the bits of a half and of a half2, for static initialization (C too) */
typedef struct __align__(2) __half_raw { unsigned short x; } __half_raw;
typedef struct __align__(4) __half2_raw { unsigned short x, y; } __half2_raw;

#ifdef __cplusplus

/* ---- rounding to a 16-bit floating format (half and bfloat16) ----
 * md: 0 to nearest even, 1 toward zero, 2 up, 3 down (device_functions.h's
 * numbering); mb: the format's mantissa bits (half 10, bfloat16 7); ex:
 * its largest exponent field (31, 255), the bias ex / 2. */
/* The bits of (-1)^neg * m * 2^e rounded by md, where st says the exact
 * value is a little larger in magnitude than m * 2^e (less than one unit
 * of m's last bit): a nonzero part lost below it. */
static __host__ __device__ inline unsigned short __cu_rnd16(unsigned neg, unsigned long long m, int e, int st, int md,
                                                            int mb, int ex) {
  unsigned s = neg ? 0x8000u : 0u;
  if (!m) return (unsigned short)s;
  int bias = ex >> 1, emin = 1 - bias;
  int E = 63 - __builtin_clzll(m) + e;   /* the exponent of m * 2^e */
  /* which way a result beyond the largest finite one goes: to infinity */
  int away = md == 0 || (md == 2 && !neg) || (md == 3 && neg);
  unsigned inf = (unsigned)ex << mb;
  if (E > bias) return (unsigned short)(s | (away ? inf : inf - 1u));
  int q = (E < emin ? emin : E) - mb;    /* the exponent of the result's last bit */
  int sh = q - e;
  unsigned long long r;
  unsigned g, rest;                      /* the first bit lost, and any below it */
  if (sh <= 0) {
    r = m << -sh;
    g = 0;
    rest = st != 0;
  } else if (sh < 64) {
    r = m >> sh;
    g = (unsigned)(m >> (sh - 1)) & 1u;
    rest = st || (m & ((1ull << (sh - 1)) - 1ull)) != 0;
  } else {
    r = 0;
    g = sh == 64 ? (unsigned)(m >> 63) : 0u;
    rest = st || sh > 64 || (m << 1) != 0;
  }
  if (md == 0) r += g && (rest || (r & 1u));
  else if (md != 1 && away) r += g || rest;
  /* a subnormal result has exponent field 0, and a carry out of its
   * mantissa makes it the smallest normal one, as the encoding adds up */
  unsigned long long bits = ((unsigned long long)(q - emin + mb) << mb) + r;
  if (bits >= inf) return (unsigned short)(s | (away ? inf : inf - 1u));
  return (unsigned short)(s | bits);
}
/* a float, a double (rest: the sign of what the exact value has beyond
 * it, 0 if nothing), integers */
static __host__ __device__ inline unsigned short __cu_f2f16(float f, int md, int mb, int ex) {
  unsigned int x;
  memcpy(&x, &f, 4);
  unsigned neg = x >> 31, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 0xffu) return (unsigned short)(m ? 0x7fffu : (neg << 15) | ((unsigned)ex << mb));
  return __cu_rnd16(neg, e ? m | 0x800000u : m, (e ? (int)e : 1) - 150, 0, md, mb, ex);
}
static __host__ __device__ inline unsigned short __cu_d2f16(double d, int rest, int md, int mb, int ex) {
  unsigned long long x;
  memcpy(&x, &d, 8);
  unsigned neg = (unsigned)(x >> 63);
  int e = (int)((x >> 52) & 0x7ffu);
  unsigned long long m = x & 0xfffffffffffffull;
  if (e == 0x7ff) return (unsigned short)(m ? 0x7fffu : (neg << 15) | ((unsigned)ex << mb));
  if (e) m |= 1ull << 52;
  else e = 1;
  int dir = neg ? -rest : rest;   /* beyond it in magnitude: a quarter unit more or less */
  if (dir && m) {
    m = (m << 2) - (dir < 0);
    e -= 2;
  }
  return __cu_rnd16(neg, m, e - 1075, dir != 0, md, mb, ex);
}
static __host__ __device__ inline unsigned short __cu_ll2f16(long long i, int md, int mb, int ex) {
  unsigned neg = i < 0;
  return __cu_rnd16(neg, neg ? 0ull - (unsigned long long)i : (unsigned long long)i, 0, 0, md, mb, ex);
}
static __host__ __device__ inline unsigned short __cu_ull2f16(unsigned long long u, int md, int mb, int ex) {
  return __cu_rnd16(0, u, 0, 0, md, mb, ex);
}
/* a * b + c rounded once to nearest even (a, b, c values of the format) */
static __host__ __device__ inline unsigned short __cu_fma16(float a, float b, float c, int mb, int ex) {
  double p = (double)a * b, s = p + c;   /* p is exact */
  int rest = 0;
  if (p != 0 && c != 0 && __builtin_isfinite(p) && __builtin_isfinite(c)) {
    unsigned long long xp, xc;
    double dc = c;
    memcpy(&xp, &p, 8);
    memcpy(&xc, &dc, 8);
    int gap = (int)((xp >> 52) & 0x7ffu) - (int)((xc >> 52) & 0x7ffu);
    /* within 30 binades both fit in a double's 53 bits and s is exact;
     * beyond, the smaller one is below the larger's last bit */
    if (gap > 30) {
      s = p;
      rest = c > 0 ? 1 : -1;
    } else if (gap < -30) {
      s = c;
      rest = p > 0 ? 1 : -1;
    }
  }
  return __cu_d2f16(s, rest, 0, mb, ex);
}
/* to integers, rounded by md and saturated; NaN gives nan */
static __host__ __device__ inline double __cu_rint_md(double x, int md) {
  return md == 0 ? rint(x) : md == 1 ? trunc(x) : md == 2 ? ceil(x) : floor(x);
}
#define __CU_F2INT(NAME, T, LO, HI, NANV)                                                     \
  static __host__ __device__ inline T NAME(float f, int md) {                                \
    if (f != f) return (T)(NANV);                                                             \
    double r = __cu_rint_md(f, md);                                                          \
    return r <= (double)(LO) ? (T)(LO) : r >= (double)(HI) ? (T)(HI) : (T)r;                 \
  }
__CU_F2INT(__cu_f2sc, signed char, -128, 127, 0)
__CU_F2INT(__cu_f2uc, unsigned char, 0, 255, 0)
__CU_F2INT(__cu_f2s, short, -32768, 32767, 0)
__CU_F2INT(__cu_f2us, unsigned short, 0, 65535, 0)
__CU_F2INT(__cu_f2i, int, (-2147483647 - 1), 2147483647, 0)
__CU_F2INT(__cu_f2u, unsigned int, 0u, 4294967295u, 0)
__CU_F2INT(__cu_f2ll, long long, (-9223372036854775807ll - 1), 9223372036854775807ll, 0x8000000000000000ull)
__CU_F2INT(__cu_f2ull, unsigned long long, 0ull, 18446744073709551615ull, 0x8000000000000000ull)
#undef __CU_F2INT

/* ---- __half and __half2 ---- */
#define __CU_HALF 10, 31   /* (mb, ex) of half */
static __host__ __device__ inline float __cu_h2f(unsigned short h) {
  unsigned int sign = (unsigned int)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0x1fu) x = sign | 0x7f800000u | (m << 13);
  else if (e) x = sign | ((e + 112u) << 23) | (m << 13);
  else if (!m) x = sign;
  else {                  /* subnormal: normalize */
    unsigned int k = 0;
    while (!(m & 0x400u)) {
      m <<= 1;
      k++;
    }
    x = sign | ((113u - k) << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

struct __nv_bfloat16;

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ constexpr __half(const __half_raw &r) : __x(r.x) {}
  __host__ __device__ __half(float f) : __x(__cu_f2f16(f, 0, __CU_HALF)) {}
  __host__ __device__ __half(double f) : __x(__cu_d2f16(f, 0, 0, __CU_HALF)) {}
  __host__ __device__ __half(short i) : __x(__cu_ll2f16(i, 0, __CU_HALF)) {}
  __host__ __device__ __half(unsigned short i) : __x(__cu_ull2f16(i, 0, __CU_HALF)) {}
  __host__ __device__ __half(int i) : __x(__cu_ll2f16(i, 0, __CU_HALF)) {}
  __host__ __device__ __half(unsigned int i) : __x(__cu_ull2f16(i, 0, __CU_HALF)) {}
  __host__ __device__ __half(long i) : __x(__cu_ll2f16(i, 0, __CU_HALF)) {}
  __host__ __device__ __half(unsigned long i) : __x(__cu_ull2f16(i, 0, __CU_HALF)) {}
  __host__ __device__ __half(long long i) : __x(__cu_ll2f16(i, 0, __CU_HALF)) {}
  __host__ __device__ __half(unsigned long long i) : __x(__cu_ull2f16(i, 0, __CU_HALF)) {}
  /* (defined by cuda_bf16.h) */
  explicit __host__ __device__ __half(__nv_bfloat16 f);
  __host__ __device__ operator float() const { return __cu_h2f(__x); }
  __host__ __device__ operator __half_raw() const {
    __half_raw r;
    r.x = __x;
    return r;
  }
};

static __host__ __device__ inline __half __cu_hbits(unsigned short b) {
  __half h;
  h.__x = b;
  return h;
}

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ constexpr __half2(__half a, __half b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw &r) : x(__cu_hbits(r.x)), y(__cu_hbits(r.y)) {}
  __host__ __device__ operator __half2_raw() const {
    __half2_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

/* ---- conversions and data movement ---- */
static __host__ __device__ inline float __half2float(__half h) { return __cu_h2f(h.__x); }
static __host__ __device__ inline __half __double2half(double d) { return __cu_hbits(__cu_d2f16(d, 0, 0, __CU_HALF)); }
static __host__ __device__ inline __half __float2half(float f) { return __cu_hbits(__cu_f2f16(f, 0, __CU_HALF)); }
#define __CU_HCVT(M, N)                                                                                           \
  static __host__ __device__ inline __half __float2half_##M(float f) { return __cu_hbits(__cu_f2f16(f, N, __CU_HALF)); } \
  static __host__ __device__ inline __half __int2half_##M(int i) { return __cu_hbits(__cu_ll2f16(i, N, __CU_HALF)); }    \
  static __host__ __device__ inline __half __short2half_##M(short i) { return __cu_hbits(__cu_ll2f16(i, N, __CU_HALF)); } \
  static __host__ __device__ inline __half __ll2half_##M(long long i) { return __cu_hbits(__cu_ll2f16(i, N, __CU_HALF)); } \
  static __host__ __device__ inline __half __uint2half_##M(unsigned int i) {                                      \
    return __cu_hbits(__cu_ull2f16(i, N, __CU_HALF));                                                             \
  }                                                                                                               \
  static __host__ __device__ inline __half __ushort2half_##M(unsigned short i) {                                  \
    return __cu_hbits(__cu_ull2f16(i, N, __CU_HALF));                                                             \
  }                                                                                                               \
  static __host__ __device__ inline __half __ull2half_##M(unsigned long long i) {                                 \
    return __cu_hbits(__cu_ull2f16(i, N, __CU_HALF));                                                             \
  }                                                                                                               \
  static __host__ __device__ inline int __half2int_##M(__half h) { return __cu_f2i(__half2float(h), N); }         \
  static __host__ __device__ inline short __half2short_##M(__half h) { return __cu_f2s(__half2float(h), N); }     \
  static __host__ __device__ inline long long __half2ll_##M(__half h) { return __cu_f2ll(__half2float(h), N); }   \
  static __host__ __device__ inline unsigned int __half2uint_##M(__half h) { return __cu_f2u(__half2float(h), N); } \
  static __host__ __device__ inline unsigned short __half2ushort_##M(__half h) {                                  \
    return __cu_f2us(__half2float(h), N);                                                                         \
  }                                                                                                               \
  static __host__ __device__ inline unsigned long long __half2ull_##M(__half h) {                                 \
    return __cu_f2ull(__half2float(h), N);                                                                        \
  }
__CU_HCVT(rn, 0) __CU_HCVT(rz, 1) __CU_HCVT(ru, 2) __CU_HCVT(rd, 3)
#undef __CU_HCVT
static __host__ __device__ inline signed char __half2char_rz(__half h) { return __cu_f2sc(__half2float(h), 1); }
static __host__ __device__ inline unsigned char __half2uchar_rz(__half h) { return __cu_f2uc(__half2float(h), 1); }
static __host__ __device__ inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static __host__ __device__ inline short __half_as_short(__half h) { return (short)h.__x; }
static __host__ __device__ inline __half __ushort_as_half(unsigned short b) { return __cu_hbits(b); }
static __host__ __device__ inline __half __short_as_half(short b) { return __cu_hbits((unsigned short)b); }
static __host__ __device__ inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
static __host__ __device__ inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
static __host__ __device__ inline __half2 __half2half2(__half a) { return __half2(a, a); }
static __host__ __device__ inline __half2 __float2half2_rn(float f) { return __half2half2(__float2half(f)); }
static __host__ __device__ inline __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half(a), __float2half(b)); }
static __host__ __device__ inline __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
static __host__ __device__ inline float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
static __host__ __device__ inline __half __low2half(__half2 h) { return h.x; }
static __host__ __device__ inline __half __high2half(__half2 h) { return h.y; }
static __host__ __device__ inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
static __host__ __device__ inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
static __host__ __device__ inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
static __host__ __device__ inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }

/* ---- what __half shares with __nv_bfloat16: arithmetic, comparisons,
 * math functions, operators, shuffles, loads and stores, atomicAdd ---- */
#define __CU_T __half
#define __CU_T2 __half2
#define __CU_FMT __CU_HALF
#define __CU_TOF(h) __cu_h2f((h).__x)
#define __CU_MK(b) __cu_hbits(b)
#define __CU_ONE 0x3c00u
#define __CU_INF 0x7c00u
#include "cucc_fp16_ops.h"
#undef __CU_T
#undef __CU_T2
#undef __CU_FMT
#undef __CU_TOF
#undef __CU_MK
#undef __CU_ONE
#undef __CU_INF

#endif /* __cplusplus */
#endif

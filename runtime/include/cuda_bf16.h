/* cuda_bf16.h: CUDA's bfloat16 (our own header): __nv_bfloat16,
 * __nv_bfloat162 and the functions of CUDA 12/13's cuda_bf16.h, in host
 * and device code. A __nv_bfloat16 holds the upper 16 bits of a float (8
 * exponent bits, 7 mantissa bits). Conversions, arithmetic and math
 * functions round as cuda_fp16.h's do for half (each result once, to the
 * mode the name says; NaN results the canonical NaN 0x7fff), and the two
 * share cucc_fp16_ops.h, shuffles too (their bits); the same difference
 * from CUDA applies (a __nv_bfloat16 converts implicitly only to float). */
#ifndef CUCC_CUDA_BF16_H
#define CUCC_CUDA_BF16_H
#include "cuda_runtime.h"
#include "cuda_fp16.h"

typedef struct __align__(2) __nv_bfloat16_raw { unsigned short x; } __nv_bfloat16_raw;
typedef struct __align__(4) __nv_bfloat162_raw { unsigned short x, y; } __nv_bfloat162_raw;

#ifdef __cplusplus
#define __CU_BF16 7, 255   /* (mb, ex) of bfloat16 */
static __host__ __device__ inline float __cu_bf2f(unsigned short h) {
  unsigned int x = (unsigned int)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ constexpr __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__cu_f2f16(f, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(double f) : __x(__cu_d2f16(f, 0, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(short i) : __x(__cu_ll2f16(i, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(unsigned short i) : __x(__cu_ull2f16(i, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(int i) : __x(__cu_ll2f16(i, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(unsigned int i) : __x(__cu_ull2f16(i, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(long i) : __x(__cu_ll2f16(i, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(unsigned long i) : __x(__cu_ull2f16(i, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(long long i) : __x(__cu_ll2f16(i, 0, __CU_BF16)) {}
  __host__ __device__ __nv_bfloat16(unsigned long long i) : __x(__cu_ull2f16(i, 0, __CU_BF16)) {}
  /* a half's value is a float's: one rounding */
  explicit __host__ __device__ __nv_bfloat16(__half h) : __x(__cu_f2f16(__half2float(h), 0, __CU_BF16)) {}
  __host__ __device__ operator float() const { return __cu_bf2f(__x); }
  __host__ __device__ operator __nv_bfloat16_raw() const {
    __nv_bfloat16_raw r;
    r.x = __x;
    return r;
  }
};
__host__ __device__ inline __half::__half(__nv_bfloat16 f) : __x(__cu_f2f16(__cu_bf2f(f.__x), 0, __CU_HALF)) {}

static __host__ __device__ inline __nv_bfloat16 __cu_bfbits(unsigned short b) {
  __nv_bfloat16 h;
  h.__x = b;
  return h;
}

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ constexpr __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &r) : x(__cu_bfbits(r.x)), y(__cu_bfbits(r.y)) {}
  __host__ __device__ operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

/* ---- conversions and data movement ---- */
static __host__ __device__ inline float __bfloat162float(__nv_bfloat16 h) { return __cu_bf2f(h.__x); }
static __host__ __device__ inline __nv_bfloat16 __double2bfloat16(double d) { return __cu_bfbits(__cu_d2f16(d, 0, 0, __CU_BF16)); }
static __host__ __device__ inline __nv_bfloat16 __float2bfloat16(float f) { return __cu_bfbits(__cu_f2f16(f, 0, __CU_BF16)); }
#define __CU_BCVT(M, N)                                                                                          \
  static __host__ __device__ inline __nv_bfloat16 __float2bfloat16_##M(float f) {                                \
    return __cu_bfbits(__cu_f2f16(f, N, __CU_BF16));                                                             \
  }                                                                                                              \
  static __host__ __device__ inline __nv_bfloat16 __int2bfloat16_##M(int i) { return __cu_bfbits(__cu_ll2f16(i, N, __CU_BF16)); } \
  static __host__ __device__ inline __nv_bfloat16 __short2bfloat16_##M(short i) {                               \
    return __cu_bfbits(__cu_ll2f16(i, N, __CU_BF16));                                                            \
  }                                                                                                              \
  static __host__ __device__ inline __nv_bfloat16 __ll2bfloat16_##M(long long i) {                               \
    return __cu_bfbits(__cu_ll2f16(i, N, __CU_BF16));                                                            \
  }                                                                                                              \
  static __host__ __device__ inline __nv_bfloat16 __uint2bfloat16_##M(unsigned int i) {                          \
    return __cu_bfbits(__cu_ull2f16(i, N, __CU_BF16));                                                           \
  }                                                                                                              \
  static __host__ __device__ inline __nv_bfloat16 __ushort2bfloat16_##M(unsigned short i) {                      \
    return __cu_bfbits(__cu_ull2f16(i, N, __CU_BF16));                                                           \
  }                                                                                                              \
  static __host__ __device__ inline __nv_bfloat16 __ull2bfloat16_##M(unsigned long long i) {                     \
    return __cu_bfbits(__cu_ull2f16(i, N, __CU_BF16));                                                           \
  }                                                                                                              \
  static __host__ __device__ inline int __bfloat162int_##M(__nv_bfloat16 h) { return __cu_f2i(__bfloat162float(h), N); } \
  static __host__ __device__ inline short __bfloat162short_##M(__nv_bfloat16 h) {                                \
    return __cu_f2s(__bfloat162float(h), N);                                                                     \
  }                                                                                                              \
  static __host__ __device__ inline long long __bfloat162ll_##M(__nv_bfloat16 h) {                               \
    return __cu_f2ll(__bfloat162float(h), N);                                                                    \
  }                                                                                                              \
  static __host__ __device__ inline unsigned int __bfloat162uint_##M(__nv_bfloat16 h) {                          \
    return __cu_f2u(__bfloat162float(h), N);                                                                     \
  }                                                                                                              \
  static __host__ __device__ inline unsigned short __bfloat162ushort_##M(__nv_bfloat16 h) {                      \
    return __cu_f2us(__bfloat162float(h), N);                                                                    \
  }                                                                                                              \
  static __host__ __device__ inline unsigned long long __bfloat162ull_##M(__nv_bfloat16 h) {                     \
    return __cu_f2ull(__bfloat162float(h), N);                                                                   \
  }
__CU_BCVT(rn, 0) __CU_BCVT(rz, 1) __CU_BCVT(ru, 2) __CU_BCVT(rd, 3)
#undef __CU_BCVT
static __host__ __device__ inline signed char __bfloat162char_rz(__nv_bfloat16 h) { return __cu_f2sc(__bfloat162float(h), 1); }
static __host__ __device__ inline unsigned char __bfloat162uchar_rz(__nv_bfloat16 h) { return __cu_f2uc(__bfloat162float(h), 1); }
static __host__ __device__ inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
static __host__ __device__ inline short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
static __host__ __device__ inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short b) { return __cu_bfbits(b); }
static __host__ __device__ inline __nv_bfloat16 __short_as_bfloat16(short b) { return __cu_bfbits((unsigned short)b); }
static __host__ __device__ inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
static __host__ __device__ inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
static __host__ __device__ inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
static __host__ __device__ inline __nv_bfloat162 __float2bfloat162_rn(float f) { return __bfloat162bfloat162(__float2bfloat16(f)); }
static __host__ __device__ inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
static __host__ __device__ inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
static __host__ __device__ inline float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
static __host__ __device__ inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
static __host__ __device__ inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
static __host__ __device__ inline __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.x, h.x); }
static __host__ __device__ inline __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.y, h.y); }
static __host__ __device__ inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
static __host__ __device__ inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}

/* ---- arithmetic, comparisons, math functions, operators, shuffles,
 * loads and stores, atomicAdd: as for __half ---- */
#define __CU_T __nv_bfloat16
#define __CU_T2 __nv_bfloat162
#define __CU_FMT __CU_BF16
#define __CU_TOF(h) __cu_bf2f((h).__x)
#define __CU_MK(b) __cu_bfbits(b)
#define __CU_ONE 0x3f80u
#define __CU_INF 0x7f80u
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

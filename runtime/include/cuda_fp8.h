/* cuda_fp8.h: CUDA's 8-bit floating point types (our own header): the
 * storage types, the C conversion functions (__nv_cvt_*) and the classes
 * __nv_fp8_e4m3, __nv_fp8_e5m2 and their x2/x4 forms, in host and device
 * code. E4M3: bias 7, no infinities, 0x7f/0xff NaN, largest finite 448.
 * E5M2: bias 15, IEEE-like (0x7c infinity), largest finite 57344.
 * Narrowing rounds once to nearest even; a result past the largest finite
 * number is that number under __NV_SATFINITE (infinities too) and NaN
 * (E4M3) or infinity (E5M2) under __NV_NOSAT; a NaN stays a NaN with its
 * sign. Widening is exact; a NaN becomes the canonical half NaN 0x7fff.
 * The class constructors saturate (__NV_SATFINITE), as CUDA's do; the
 * conversions to 16-bit and wider integers go through __half as CUDA's
 * (truncated, saturated, NaN to 0; 64-bit NaN 0x8000000000000000). (The
 * e8m0 scale type of CUDA 12.8 is not provided.) */
#ifndef CUCC_CUDA_FP8_H
#define CUCC_CUDA_FP8_H
#define __CUDA_FP8_TYPES_EXIST__
#include "cuda_runtime.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

#ifdef __cplusplus
/* x rounded to nearest even into the format with `mb` mantissa bits and
 * exponent bias `bias`: the count of quanta of the binade (or of the
 * subnormal range), which, added to the biased exponent's field, is the
 * encoding, a carry into the next binade included */
static __host__ __device__ inline __nv_fp8_storage_t __cu_d2fp8(double x, __nv_saturation_t sat,
                                                                __nv_fp8_interpretation_t kind) {
  unsigned long long b;
  memcpy(&b, &x, 8);
  const bool e5 = kind == __NV_E5M2;
  const int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7, emin = 1 - bias;
  const unsigned maxn = e5 ? 0x7bu : 0x7eu;
  const unsigned sign = (unsigned)(b >> 63) << 7;
  const unsigned long long a = b & 0x7fffffffffffffffull;
  if (a > 0x7ff0000000000000ull)   /* NaN: E5M2 keeps the top payload bit */
    return (__nv_fp8_storage_t)(sign | (e5 ? 0x7eu | (unsigned)((a >> 50) & 3) : 0x7fu));
  const int e = (int)(a >> 52) - 1023;
  unsigned code;
  if (e > (e5 ? 15 : 8)) {
    code = 0x100;   /* at least twice the largest binade (infinity too): overflow */
  } else {
    const int q = (e >= emin ? e : emin) - mb;   /* log2 of the quantum */
    double ax;
    memcpy(&ax, &a, 8);
    const double m = __builtin_ldexp(ax, -q);    /* exact: a power of two */
    unsigned n = (unsigned)m;
    const double f = m - (double)n;
    if (f > 0.5 || (f == 0.5 && (n & 1))) n++;
    code = e >= emin ? (unsigned)((e + bias) << mb) + n - (1u << mb) : n;
  }
  if (code > maxn) code = sat == __NV_SATFINITE ? maxn : e5 ? 0x7cu : 0x7fu;
  return (__nv_fp8_storage_t)(sign | code);
}

/* the value of an fp8 number (exact in float); NaN: the canonical half NaN's */
static __host__ __device__ inline float __cu_fp82f(__nv_fp8_storage_t c, __nv_fp8_interpretation_t kind) {
  const bool e5 = kind == __NV_E5M2;
  const int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7;
  const unsigned E = (c & 0x7fu) >> mb, m = c & ((1u << mb) - 1);
  float v;
  if (e5 ? E == 31 && m : (c & 0x7fu) == 0x7fu) return __half2float(__half(__half_raw{0x7fff}));
  if (e5 && E == 31) v = __builtin_inff();
  else if (E == 0) v = __builtin_ldexpf((float)m, 1 - bias - mb);
  else v = __builtin_ldexpf((float)(m | (1u << mb)), (int)E - bias - mb);
  return c & 0x80u ? -v : v;
}

static __host__ __device__ inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t s,
                                                                            const __nv_fp8_interpretation_t k) {
  return __cu_d2fp8(x, s, k);
}
static __host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x,
                                                                                const __nv_saturation_t s,
                                                                                const __nv_fp8_interpretation_t k) {
  return (__nv_fp8x2_storage_t)(__cu_d2fp8(x.x, s, k) | (unsigned)__cu_d2fp8(x.y, s, k) << 8);
}
/* (a float, half or bfloat16 is exact in double: one rounding) */
static __host__ __device__ inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t s,
                                                                           const __nv_fp8_interpretation_t k) {
  return __cu_d2fp8(x, s, k);
}
static __host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x,
                                                                               const __nv_saturation_t s,
                                                                               const __nv_fp8_interpretation_t k) {
  return (__nv_fp8x2_storage_t)(__cu_d2fp8(x.x, s, k) | (unsigned)__cu_d2fp8(x.y, s, k) << 8);
}
static __host__ __device__ inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x,
                                                                             const __nv_saturation_t s,
                                                                             const __nv_fp8_interpretation_t k) {
  return __cu_d2fp8(__half2float(__half(x)), s, k);
}
static __host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x,
                                                                                 const __nv_saturation_t s,
                                                                                 const __nv_fp8_interpretation_t k) {
  return (__nv_fp8x2_storage_t)(__cu_d2fp8(__half2float(__half(__half_raw{x.x})), s, k) |
                                (unsigned)__cu_d2fp8(__half2float(__half(__half_raw{x.y})), s, k) << 8);
}
static __host__ __device__ inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x,
                                                                                 const __nv_saturation_t s,
                                                                                 const __nv_fp8_interpretation_t k) {
  return __cu_d2fp8(__cu_bf2f(x.x), s, k);
}
static __host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(
    const __nv_bfloat162_raw x, const __nv_saturation_t s, const __nv_fp8_interpretation_t k) {
  return (__nv_fp8x2_storage_t)(__cu_d2fp8(__cu_bf2f(x.x), s, k) | (unsigned)__cu_d2fp8(__cu_bf2f(x.y), s, k) << 8);
}
static __host__ __device__ inline __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                                                     const __nv_fp8_interpretation_t k) {
  return (__half_raw)__float2half_rn(__cu_fp82f(x, k));   /* exact; NaN 0x7fff */
}
static __host__ __device__ inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                                                        const __nv_fp8_interpretation_t k) {
  __half2_raw r;
  r.x = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(x & 0xffu), k).x;
  r.y = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(x >> 8), k).x;
  return r;
}

/* The scalar classes: one byte of storage (__x), explicit conversions
 * both ways as in CUDA. */
#define __CU_FP8_CLASS(NAME, KIND)                                                                           \
  struct __align__(1) NAME {                                                                                 \
    __nv_fp8_storage_t __x;                                                                                  \
    NAME() = default;                                                                                        \
    explicit __host__ __device__ NAME(const __half f)                                                        \
        : __x(__nv_cvt_halfraw_to_fp8((__half_raw)f, __NV_SATFINITE, KIND)) {}                               \
    explicit __host__ __device__ NAME(const __nv_bfloat16 f)                                                 \
        : __x(__nv_cvt_bfloat16raw_to_fp8((__nv_bfloat16_raw)f, __NV_SATFINITE, KIND)) {}                    \
    explicit __host__ __device__ NAME(const float f) : __x(__cu_d2fp8(f, __NV_SATFINITE, KIND)) {}           \
    explicit __host__ __device__ NAME(const double f) : __x(__cu_d2fp8(f, __NV_SATFINITE, KIND)) {}          \
    explicit __host__ __device__ NAME(const unsigned short v) : NAME((float)v) {}                            \
    explicit __host__ __device__ NAME(const unsigned int v) : NAME((float)v) {}                              \
    explicit __host__ __device__ NAME(const unsigned long v) : NAME((double)v) {}                            \
    explicit __host__ __device__ NAME(const unsigned long long v) : NAME((double)v) {}                       \
    explicit __host__ __device__ NAME(const short v) : NAME((float)v) {}                                     \
    explicit __host__ __device__ NAME(const int v) : NAME((float)v) {}                                       \
    explicit __host__ __device__ NAME(const long v) : NAME((double)v) {}                                     \
    explicit __host__ __device__ NAME(const long long v) : NAME((double)v) {}                                \
    explicit __host__ __device__ operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__x, KIND)); } \
    explicit __host__ __device__ operator float() const { return __cu_fp82f(__x, KIND); }                   \
    explicit __host__ __device__ operator double() const { return __cu_fp82f(__x, KIND); }                  \
    explicit __host__ __device__ operator __nv_bfloat16() const { return __nv_bfloat16(__cu_fp82f(__x, KIND)); } \
    explicit __host__ __device__ operator bool() const { return (__x & 0x7fu) != 0; }                        \
    explicit __host__ __device__ operator unsigned char() const { return (unsigned char)__cu_fp8_c(0, 255); }   \
    explicit __host__ __device__ operator signed char() const { return (signed char)__cu_fp8_c(-128, 127); }   \
    explicit __host__ __device__ operator char() const {                                                     \
      return (char)((char)-1 < 0 ? __cu_fp8_c(-128, 127) : __cu_fp8_c(0, 255));                              \
    }                                                                                                        \
    explicit __host__ __device__ operator unsigned short() const { return __half2ushort_rz(__half(*this)); } \
    explicit __host__ __device__ operator short() const { return __half2short_rz(__half(*this)); }           \
    explicit __host__ __device__ operator unsigned int() const { return __half2uint_rz(__half(*this)); }     \
    explicit __host__ __device__ operator int() const { return __half2int_rz(__half(*this)); }               \
    explicit __host__ __device__ operator unsigned long() const {                                            \
      return (unsigned long)__half2ull_rz(__half(*this));                                                    \
    }                                                                                                        \
    explicit __host__ __device__ operator long() const { return (long)__half2ll_rz(__half(*this)); }         \
    explicit __host__ __device__ operator unsigned long long() const { return __half2ull_rz(__half(*this)); } \
    explicit __host__ __device__ operator long long() const { return __half2ll_rz(__half(*this)); }          \
    /* the 8-bit integers: truncated and clamped, NaN to 0 */                                                \
    __host__ __device__ int __cu_fp8_c(int lo, int hi) const {                                               \
      const float f = __cu_fp82f(__x, KIND);                                                                 \
      return f != f ? 0 : f <= (float)lo ? lo : f >= (float)hi ? hi : (int)f;                                \
    }                                                                                                        \
  };
__CU_FP8_CLASS(__nv_fp8_e4m3, __NV_E4M3)
__CU_FP8_CLASS(__nv_fp8_e5m2, __NV_E5M2)
#undef __CU_FP8_CLASS

/* pairs (x in the low byte) and quads (x in the lowest) */
#define __CU_FP8X_CLASSES(NAME2, NAME4, KIND)                                                                 \
  struct __align__(2) NAME2 {                                                                                 \
    __nv_fp8x2_storage_t __x;                                                                                 \
    NAME2() = default;                                                                                        \
    explicit __host__ __device__ NAME2(const __half2 f)                                                       \
        : __x(__nv_cvt_halfraw2_to_fp8x2((__half2_raw)f, __NV_SATFINITE, KIND)) {}                            \
    explicit __host__ __device__ NAME2(const __nv_bfloat162 f)                                                \
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2((__nv_bfloat162_raw)f, __NV_SATFINITE, KIND)) {}                 \
    explicit __host__ __device__ NAME2(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, KIND)) {} \
    explicit __host__ __device__ NAME2(const double2 f)                                                       \
        : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, KIND)) {}                                          \
    explicit __host__ __device__ operator __half2() const {                                                   \
      return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, KIND));                                                  \
    }                                                                                                         \
    explicit __host__ __device__ operator float2() const {                                                    \
      return make_float2(__cu_fp82f((__nv_fp8_storage_t)(__x & 0xffu), KIND),                                 \
                         __cu_fp82f((__nv_fp8_storage_t)(__x >> 8), KIND));                                   \
    }                                                                                                         \
  };                                                                                                          \
  struct __align__(4) NAME4 {                                                                                 \
    __nv_fp8x4_storage_t __x;                                                                                 \
    NAME4() = default;                                                                                        \
    explicit __host__ __device__ NAME4(const __half2 lo, const __half2 hi)                                    \
        : __x(__nv_cvt_halfraw2_to_fp8x2((__half2_raw)lo, __NV_SATFINITE, KIND) |                             \
              (unsigned)__nv_cvt_halfraw2_to_fp8x2((__half2_raw)hi, __NV_SATFINITE, KIND) << 16) {}           \
    explicit __host__ __device__ NAME4(const __nv_bfloat162 lo, const __nv_bfloat162 hi)                      \
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2((__nv_bfloat162_raw)lo, __NV_SATFINITE, KIND) |                  \
              (unsigned)__nv_cvt_bfloat16raw2_to_fp8x2((__nv_bfloat162_raw)hi, __NV_SATFINITE, KIND) << 16) {} \
    explicit __host__ __device__ NAME4(const float4 f)                                                        \
        : __x(__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, KIND) |                         \
              (unsigned)__nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, KIND) << 16) {}       \
    explicit __host__ __device__ NAME4(const double4 f)                                                       \
        : __x(__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, KIND) |                       \
              (unsigned)__nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, KIND) << 16) {}     \
    explicit __host__ __device__ operator float4() const {                                                    \
      return make_float4(__cu_fp82f((__nv_fp8_storage_t)(__x & 0xffu), KIND),                                \
                         __cu_fp82f((__nv_fp8_storage_t)((__x >> 8) & 0xffu), KIND),                          \
                         __cu_fp82f((__nv_fp8_storage_t)((__x >> 16) & 0xffu), KIND),                         \
                         __cu_fp82f((__nv_fp8_storage_t)(__x >> 24), KIND));                                  \
    }                                                                                                         \
  };
__CU_FP8X_CLASSES(__nv_fp8x2_e4m3, __nv_fp8x4_e4m3, __NV_E4M3)
__CU_FP8X_CLASSES(__nv_fp8x2_e5m2, __nv_fp8x4_e5m2, __NV_E5M2)
#undef __CU_FP8X_CLASSES
#endif
#endif

/* cuda_bf16.h: CUDA's bfloat16 (our own header): __nv_bfloat16 and
 * __nv_bfloat162 in host and device code. A __nv_bfloat16 holds the upper
 * 16 bits of a float (8 exponent bits, 7 mantissa bits); arithmetic is
 * done in float and rounded back to nearest even, as cuda_fp16.h does for
 * half. */
#ifndef CUCC_CUDA_BF16_H
#define CUCC_CUDA_BF16_H
#include "cuda_runtime.h"
#include "cuda_fp16.h"
#ifdef __cplusplus

/* float -> bfloat16 bits: to nearest even (NaN stays a quiet NaN), toward
 * zero, down and up */
static __host__ __device__ inline unsigned short __cu_f2bf(float f) {
  unsigned int x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((x >> 16) | 0x40u);
  return (unsigned short)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
static __host__ __device__ inline unsigned short __cu_f2bf_dir(float f, int up) {
  unsigned int x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((x >> 16) | 0x40u);
  unsigned int t = x >> 16;   /* toward zero */
  bool neg = x >> 31, inexact = (x & 0xffffu) != 0;
  if (inexact && ((up > 0 && !neg) || (up < 0 && neg))) t++;   /* away from zero */
  return (unsigned short)t;
}
static __host__ __device__ inline float __cu_bf2f(unsigned short h) {
  unsigned int x = (unsigned int)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(float f) : __x(__cu_f2bf(f)) {}
  __host__ __device__ __nv_bfloat16(double f) : __x(__cu_f2bf((float)f)) {}
  __host__ __device__ __nv_bfloat16(int i) : __x(__cu_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned int i) : __x(__cu_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(__half h) : __x(__cu_f2bf(__half2float(h))) {}
  __host__ __device__ operator float() const { return __cu_bf2f(__x); }
};

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

static __host__ __device__ inline __nv_bfloat16 __cu_bfbits(unsigned short b) {
  __nv_bfloat16 h;
  h.__x = b;
  return h;
}

/* conversions */
static __host__ __device__ inline __nv_bfloat16 __float2bfloat16(float f) { return __cu_bfbits(__cu_f2bf(f)); }
static __host__ __device__ inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __cu_bfbits(__cu_f2bf(f)); }
static __host__ __device__ inline __nv_bfloat16 __float2bfloat16_rz(float f) { return __cu_bfbits(__cu_f2bf_dir(f, 0)); }
static __host__ __device__ inline __nv_bfloat16 __float2bfloat16_ru(float f) { return __cu_bfbits(__cu_f2bf_dir(f, 1)); }
static __host__ __device__ inline __nv_bfloat16 __float2bfloat16_rd(float f) { return __cu_bfbits(__cu_f2bf_dir(f, -1)); }
static __host__ __device__ inline __nv_bfloat16 __double2bfloat16(double f) { return __cu_bfbits(__cu_f2bf((float)f)); }
static __host__ __device__ inline float __bfloat162float(__nv_bfloat16 h) { return __cu_bf2f(h.__x); }
static __host__ __device__ inline __nv_bfloat16 __int2bfloat16_rn(int i) { return __float2bfloat16((float)i); }
static __host__ __device__ inline __nv_bfloat16 __uint2bfloat16_rn(unsigned int i) { return __float2bfloat16((float)i); }
static __host__ __device__ inline int __bfloat162int_rz(__nv_bfloat16 h) { return (int)__cu_bf2f(h.__x); }
static __host__ __device__ inline int __bfloat162int_rn(__nv_bfloat16 h) { return (int)rintf(__cu_bf2f(h.__x)); }
static __host__ __device__ inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
static __host__ __device__ inline short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
static __host__ __device__ inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short b) { return __cu_bfbits(b); }
static __host__ __device__ inline __nv_bfloat16 __short_as_bfloat16(short b) { return __cu_bfbits((unsigned short)b); }
static __host__ __device__ inline __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(__float2bfloat16(f), __float2bfloat16(f));
}
static __host__ __device__ inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
static __host__ __device__ inline __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __nv_bfloat162(__float2bfloat16(f.x), __float2bfloat16(f.y));
}
static __host__ __device__ inline float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
static __host__ __device__ inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
static __host__ __device__ inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
static __host__ __device__ inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
static __host__ __device__ inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
static __host__ __device__ inline float __low2float(__nv_bfloat162 h) { return __bfloat162float(h.x); }
static __host__ __device__ inline float __high2float(__nv_bfloat162 h) { return __bfloat162float(h.y); }

/* arithmetic: in float, rounded once (CUDA overloads the half names) */
#define CU_BF1(name, expr)                                                                 \
  static __host__ __device__ inline __nv_bfloat16 name(__nv_bfloat16 a, __nv_bfloat16 b) { \
    float x = __bfloat162float(a), y = __bfloat162float(b);                                \
    return __float2bfloat16(expr);                                                         \
  }
CU_BF1(__hadd, x + y)
CU_BF1(__hsub, x - y)
CU_BF1(__hmul, x * y)
CU_BF1(__hdiv, x / y)
CU_BF1(__hmax, x > y ? x : y)
CU_BF1(__hmin, x < y ? x : y)
#undef CU_BF1
static __host__ __device__ inline __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __cu_bfbits((unsigned short)(a.__x ^ 0x8000u)); }
static __host__ __device__ inline __nv_bfloat16 __habs(__nv_bfloat16 a) { return __cu_bfbits((unsigned short)(a.__x & 0x7fffu)); }
static __host__ __device__ inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  /* the product of two bfloat16 is exact in float: one rounding of the sum */
  return __float2bfloat16((float)((double)__bfloat162float(a) * __bfloat162float(b) + __bfloat162float(c)));
}
static __host__ __device__ inline bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
static __host__ __device__ inline bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
static __host__ __device__ inline bool __hne(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) != __bfloat162float(b); }
static __host__ __device__ inline bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
static __host__ __device__ inline bool __hle(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) <= __bfloat162float(b); }
static __host__ __device__ inline bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) > __bfloat162float(b); }
static __host__ __device__ inline bool __hge(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) >= __bfloat162float(b); }
static __host__ __device__ inline __nv_bfloat16 hsqrt(__nv_bfloat16 a) { return __float2bfloat16(sqrtf(__bfloat162float(a))); }
static __host__ __device__ inline __nv_bfloat16 hrsqrt(__nv_bfloat16 a) { return __float2bfloat16(1.0f / sqrtf(__bfloat162float(a))); }
static __host__ __device__ inline __nv_bfloat16 hexp(__nv_bfloat16 a) { return __float2bfloat16(expf(__bfloat162float(a))); }
static __host__ __device__ inline __nv_bfloat16 hlog(__nv_bfloat16 a) { return __float2bfloat16(logf(__bfloat162float(a))); }
static __host__ __device__ inline __nv_bfloat16 hsin(__nv_bfloat16 a) { return __float2bfloat16(sinf(__bfloat162float(a))); }
static __host__ __device__ inline __nv_bfloat16 hcos(__nv_bfloat16 a) { return __float2bfloat16(cosf(__bfloat162float(a))); }
static __host__ __device__ inline __nv_bfloat16 hfloor(__nv_bfloat16 a) { return __float2bfloat16(floorf(__bfloat162float(a))); }
static __host__ __device__ inline __nv_bfloat16 hceil(__nv_bfloat16 a) { return __float2bfloat16(ceilf(__bfloat162float(a))); }

#define CU_BF2(name, op)                                                                      \
  static __host__ __device__ inline __nv_bfloat162 name(__nv_bfloat162 a, __nv_bfloat162 b) { \
    return __nv_bfloat162(op(a.x, b.x), op(a.y, b.y));                                        \
  }
CU_BF2(__hadd2, __hadd)
CU_BF2(__hsub2, __hsub)
CU_BF2(__hmul2, __hmul)
CU_BF2(__h2div, __hdiv)
CU_BF2(__hmax2, __hmax)
CU_BF2(__hmin2, __hmin)
#undef CU_BF2
static __host__ __device__ inline __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __nv_bfloat162(__hneg(a.x), __hneg(a.y)); }
static __host__ __device__ inline __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __nv_bfloat162(__habs(a.x), __habs(a.y)); }
static __host__ __device__ inline __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

/* operators */
static __host__ __device__ inline __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
static __host__ __device__ inline __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
static __host__ __device__ inline __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
static __host__ __device__ inline __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __hdiv(a, b); }
static __host__ __device__ inline __nv_bfloat16 operator-(__nv_bfloat16 a) { return __hneg(a); }
static __host__ __device__ inline __nv_bfloat16 &operator+=(__nv_bfloat16 &a, __nv_bfloat16 b) { a = __hadd(a, b); return a; }
static __host__ __device__ inline __nv_bfloat16 &operator-=(__nv_bfloat16 &a, __nv_bfloat16 b) { a = __hsub(a, b); return a; }
static __host__ __device__ inline __nv_bfloat16 &operator*=(__nv_bfloat16 &a, __nv_bfloat16 b) { a = __hmul(a, b); return a; }
static __host__ __device__ inline __nv_bfloat16 &operator/=(__nv_bfloat16 &a, __nv_bfloat16 b) { a = __hdiv(a, b); return a; }
static __host__ __device__ inline bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return __heq(a, b); }
static __host__ __device__ inline bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hne(a, b); }
static __host__ __device__ inline bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return __hlt(a, b); }
static __host__ __device__ inline bool operator<=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hle(a, b); }
static __host__ __device__ inline bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return __hgt(a, b); }
static __host__ __device__ inline bool operator>=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hge(a, b); }
static __host__ __device__ inline __nv_bfloat162 operator+(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
static __host__ __device__ inline __nv_bfloat162 operator-(__nv_bfloat162 a, __nv_bfloat162 b) { return __hsub2(a, b); }
static __host__ __device__ inline __nv_bfloat162 operator*(__nv_bfloat162 a, __nv_bfloat162 b) { return __hmul2(a, b); }
static __host__ __device__ inline __nv_bfloat162 operator/(__nv_bfloat162 a, __nv_bfloat162 b) { return __h2div(a, b); }
static __host__ __device__ inline __nv_bfloat162 operator-(__nv_bfloat162 a) { return __hneg2(a); }
#endif
#endif

/* cuda_fp16.h: CUDA's half precision (our own header): __half and __half2
 * in host and device code. A __half holds IEEE binary16 bits; arithmetic
 * is done in float and rounded back to nearest-even, which for + - * /
 * gives exactly the correctly rounded half result a GPU computes. */
#ifndef CUCC_CUDA_FP16_H
#define CUCC_CUDA_FP16_H
#include "cuda_runtime.h"
#ifdef __cplusplus

/* float <-> binary16 bits, rounding to nearest even */
static __host__ __device__ inline unsigned short __cu_f2h(float f) {
  unsigned int x;
  memcpy(&x, &f, 4);
  unsigned int sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 0xffu) return (unsigned short)(sign | 0x7c00u | (m ? 0x200u : 0u));   /* inf, nan */
  int E = (int)e - 112;   /* the half's biased exponent */
  if (E >= 31) return (unsigned short)(sign | 0x7c00u);
  if (E <= 0) {           /* a subnormal half, or zero */
    if (E < -10) return (unsigned short)sign;
    m |= 0x800000u;
    unsigned int sh = (unsigned int)(14 - E), h = m >> sh, rem = m & ((1u << sh) - 1u), half = 1u << (sh - 1u);
    if (rem > half || (rem == half && (h & 1u))) h++;
    return (unsigned short)(sign | h);
  }
  unsigned int h = ((unsigned int)E << 10) | (m >> 13), rem = m & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;   /* a carry may round up to inf */
  return (unsigned short)(sign | h);
}

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

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(float f) : __x(__cu_f2h(f)) {}
  __host__ __device__ __half(double f) : __x(__cu_f2h((float)f)) {}
  __host__ __device__ __half(int i) : __x(__cu_f2h((float)i)) {}
  __host__ __device__ operator float() const { return __cu_h2f(__x); }
};

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
};

typedef __half half;
typedef __half2 half2;

static __host__ __device__ inline __half __cu_hbits(unsigned short b) {
  __half h;
  h.__x = b;
  return h;
}

/* conversions */
static __host__ __device__ inline __half __float2half(float f) { return __half(f); }
static __host__ __device__ inline __half __float2half_rn(float f) { return __half(f); }
static __host__ __device__ inline __half __double2half(double f) { return __half((float)f); }
static __host__ __device__ inline float __half2float(__half h) { return __cu_h2f(h.__x); }
static __host__ __device__ inline __half __int2half_rn(int i) { return __half((float)i); }
static __host__ __device__ inline __half __uint2half_rn(unsigned int i) { return __half((float)i); }
static __host__ __device__ inline __half __short2half_rn(short i) { return __half((float)i); }
static __host__ __device__ inline int __half2int_rz(__half h) { return (int)__cu_h2f(h.__x); }
static __host__ __device__ inline int __half2int_rn(__half h) { return (int)rintf(__cu_h2f(h.__x)); }
static __host__ __device__ inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static __host__ __device__ inline short __half_as_short(__half h) { return (short)h.__x; }
static __host__ __device__ inline __half __ushort_as_half(unsigned short b) { return __cu_hbits(b); }
static __host__ __device__ inline __half __short_as_half(short b) { return __cu_hbits((unsigned short)b); }
static __host__ __device__ inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
static __host__ __device__ inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
static __host__ __device__ inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
static __host__ __device__ inline float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
static __host__ __device__ inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
static __host__ __device__ inline __half2 __half2half2(__half a) { return __half2(a, a); }
static __host__ __device__ inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
static __host__ __device__ inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
static __host__ __device__ inline __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
static __host__ __device__ inline __half __low2half(__half2 h) { return h.x; }
static __host__ __device__ inline __half __high2half(__half2 h) { return h.y; }
static __host__ __device__ inline float __low2float(__half2 h) { return __half2float(h.x); }
static __host__ __device__ inline float __high2float(__half2 h) { return __half2float(h.y); }

/* arithmetic: in float, rounded once */
#define CU_H1(name, expr) \
  static __host__ __device__ inline __half name(__half a, __half b) { float x = __half2float(a), y = __half2float(b); return __half(expr); }
CU_H1(__hadd, x + y)
CU_H1(__hsub, x - y)
CU_H1(__hmul, x * y)
CU_H1(__hdiv, x / y)
CU_H1(__hmax, x > y ? x : y)
CU_H1(__hmin, x < y ? x : y)
#undef CU_H1
static __host__ __device__ inline __half __hneg(__half a) { return __cu_hbits((unsigned short)(a.__x ^ 0x8000u)); }
static __host__ __device__ inline __half __habs(__half a) { return __cu_hbits((unsigned short)(a.__x & 0x7fffu)); }
static __host__ __device__ inline __half __hfma(__half a, __half b, __half c) {
  return __half((float)((double)__half2float(a) * __half2float(b) + __half2float(c)));
}
static __host__ __device__ inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
static __host__ __device__ inline bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
static __host__ __device__ inline bool __hne(__half a, __half b) { return __half2float(a) != __half2float(b); }
static __host__ __device__ inline bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
static __host__ __device__ inline bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
static __host__ __device__ inline bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
static __host__ __device__ inline bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
static __host__ __device__ inline __half hsqrt(__half a) { return __half(sqrtf(__half2float(a))); }
static __host__ __device__ inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf(__half2float(a))); }
static __host__ __device__ inline __half hexp(__half a) { return __half(expf(__half2float(a))); }
static __host__ __device__ inline __half hlog(__half a) { return __half(logf(__half2float(a))); }
static __host__ __device__ inline __half hsin(__half a) { return __half(sinf(__half2float(a))); }
static __host__ __device__ inline __half hcos(__half a) { return __half(cosf(__half2float(a))); }
static __host__ __device__ inline __half hfloor(__half a) { return __half(floorf(__half2float(a))); }
static __host__ __device__ inline __half hceil(__half a) { return __half(ceilf(__half2float(a))); }

#define CU_H2(name, op) \
  static __host__ __device__ inline __half2 name(__half2 a, __half2 b) { return __half2(op(a.x, b.x), op(a.y, b.y)); }
CU_H2(__hadd2, __hadd)
CU_H2(__hsub2, __hsub)
CU_H2(__hmul2, __hmul)
CU_H2(__h2div, __hdiv)
CU_H2(__hmax2, __hmax)
CU_H2(__hmin2, __hmin)
#undef CU_H2
static __host__ __device__ inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
static __host__ __device__ inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
static __host__ __device__ inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

/* operators */
static __host__ __device__ inline __half operator+(__half a, __half b) { return __hadd(a, b); }
static __host__ __device__ inline __half operator-(__half a, __half b) { return __hsub(a, b); }
static __host__ __device__ inline __half operator*(__half a, __half b) { return __hmul(a, b); }
static __host__ __device__ inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
static __host__ __device__ inline __half operator-(__half a) { return __hneg(a); }
static __host__ __device__ inline __half &operator+=(__half &a, __half b) { a = __hadd(a, b); return a; }
static __host__ __device__ inline __half &operator-=(__half &a, __half b) { a = __hsub(a, b); return a; }
static __host__ __device__ inline __half &operator*=(__half &a, __half b) { a = __hmul(a, b); return a; }
static __host__ __device__ inline __half &operator/=(__half &a, __half b) { a = __hdiv(a, b); return a; }
static __host__ __device__ inline bool operator==(__half a, __half b) { return __heq(a, b); }
static __host__ __device__ inline bool operator!=(__half a, __half b) { return __hne(a, b); }
static __host__ __device__ inline bool operator<(__half a, __half b) { return __hlt(a, b); }
static __host__ __device__ inline bool operator<=(__half a, __half b) { return __hle(a, b); }
static __host__ __device__ inline bool operator>(__half a, __half b) { return __hgt(a, b); }
static __host__ __device__ inline bool operator>=(__half a, __half b) { return __hge(a, b); }
static __host__ __device__ inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
static __host__ __device__ inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
static __host__ __device__ inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
static __host__ __device__ inline __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
static __host__ __device__ inline __half2 operator-(__half2 a) { return __hneg2(a); }
static __host__ __device__ inline __half2 &operator+=(__half2 &a, __half2 b) { a = __hadd2(a, b); return a; }
static __host__ __device__ inline __half2 &operator-=(__half2 &a, __half2 b) { a = __hsub2(a, b); return a; }
static __host__ __device__ inline __half2 &operator*=(__half2 &a, __half2 b) { a = __hmul2(a, b); return a; }
#endif
#endif

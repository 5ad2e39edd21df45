/* cucc_fp16_ops.h: what cuda_fp16.h's __half and cuda_bf16.h's
 * __nv_bfloat16 share (our own header, no include guard): each of them
 * includes it once, naming its types and format:
 *   __CU_T, __CU_T2   the scalar and the pair type
 *   __CU_FMT          its (mantissa bits, largest exponent field) for cuda_fp16.h's __cu_rnd16
 *   __CU_TOF(h)       the value of h as a float (exact)
 *   __CU_MK(b)        the value with bits b
 *   __CU_ONE, __CU_INF the bits of 1.0 and of +infinity
 * Arithmetic, comparisons and math functions on the float values, each
 * result rounded once to the format (cuda_fp16.h says why that is the
 * correctly rounded result); operators; shuffles, cache-hinted loads and
 * stores, atomicAdd (device code). */

#define __CU_RN(f) __CU_MK(__cu_f2f16((f), 0, __CU_FMT))   /* a float, to nearest even */
#define __CU_ISNAN(h) (((h).__x & 0x7fffu) > __CU_INF)

static __host__ __device__ inline float __low2float(__CU_T2 h) { return __CU_TOF(h.x); }
static __host__ __device__ inline float __high2float(__CU_T2 h) { return __CU_TOF(h.y); }
static __host__ __device__ inline __CU_T2 __lowhigh2highlow(__CU_T2 h) { return __CU_T2(h.y, h.x); }

/* ---- arithmetic ---- */
static __host__ __device__ inline __CU_T __habs(__CU_T a) { return __CU_MK((unsigned short)(a.__x & 0x7fffu)); }
static __host__ __device__ inline __CU_T __hneg(__CU_T a) { return __CU_MK((unsigned short)(a.__x ^ 0x8000u)); }
/* [0, 1]: below it (-0 too) and NaN to +0 */
static __host__ __device__ inline __CU_T __cu_sat(__CU_T r) {
  float v = __CU_TOF(r);
  return v != v || v <= 0.0f ? __CU_MK(0) : v >= 1.0f ? __CU_MK((unsigned short)__CU_ONE) : r;
}
/* (the _rn forms: no contraction into an fma, as none happens here) */
#define __CU_A(NAME, EXPR)                                                                  \
  static __host__ __device__ inline __CU_T NAME(__CU_T a, __CU_T b) {                       \
    float x = __CU_TOF(a), y = __CU_TOF(b);                                                 \
    return __CU_RN(EXPR);                                                                   \
  }                                                                                         \
  static __host__ __device__ inline __CU_T NAME##_rn(__CU_T a, __CU_T b) { return NAME(a, b); } \
  static __host__ __device__ inline __CU_T NAME##_sat(__CU_T a, __CU_T b) { return __cu_sat(NAME(a, b)); }
__CU_A(__hadd, x + y)
__CU_A(__hsub, x - y)
__CU_A(__hmul, x * y)
#undef __CU_A
static __host__ __device__ inline __CU_T __hdiv(__CU_T a, __CU_T b) { return __CU_RN(__CU_TOF(a) / __CU_TOF(b)); }
static __host__ __device__ inline __CU_T __hfma(__CU_T a, __CU_T b, __CU_T c) {
  return __CU_MK(__cu_fma16(__CU_TOF(a), __CU_TOF(b), __CU_TOF(c), __CU_FMT));
}
static __host__ __device__ inline __CU_T __hfma_sat(__CU_T a, __CU_T b, __CU_T c) { return __cu_sat(__hfma(a, b, c)); }
/* below 0 to +0 (-0 stays), NaN to the canonical NaN */
static __host__ __device__ inline __CU_T __hfma_relu(__CU_T a, __CU_T b, __CU_T c) {
  __CU_T r = __hfma(a, b, c);
  float v = __CU_TOF(r);
  return v != v ? __CU_MK(0x7fff) : v < 0.0f ? __CU_MK(0) : r;
}

#define __CU_V2(NAME, OP)                                                                      \
  static __host__ __device__ inline __CU_T2 NAME(__CU_T2 a, __CU_T2 b) { return __CU_T2(OP(a.x, b.x), OP(a.y, b.y)); }
__CU_V2(__hadd2, __hadd)
__CU_V2(__hsub2, __hsub)
__CU_V2(__hmul2, __hmul)
__CU_V2(__hadd2_rn, __hadd)
__CU_V2(__hsub2_rn, __hsub)
__CU_V2(__hmul2_rn, __hmul)
__CU_V2(__hadd2_sat, __hadd_sat)
__CU_V2(__hsub2_sat, __hsub_sat)
__CU_V2(__hmul2_sat, __hmul_sat)
__CU_V2(__h2div, __hdiv)
#define __CU_V3(NAME, OP)                                                                      \
  static __host__ __device__ inline __CU_T2 NAME(__CU_T2 a, __CU_T2 b, __CU_T2 c) {          \
    return __CU_T2(OP(a.x, b.x, c.x), OP(a.y, b.y, c.y));                                      \
  }
__CU_V3(__hfma2, __hfma)
__CU_V3(__hfma2_sat, __hfma_sat)
__CU_V3(__hfma2_relu, __hfma_relu)
#undef __CU_V3
static __host__ __device__ inline __CU_T2 __habs2(__CU_T2 a) { return __CU_T2(__habs(a.x), __habs(a.y)); }
static __host__ __device__ inline __CU_T2 __hneg2(__CU_T2 a) { return __CU_T2(__hneg(a.x), __hneg(a.y)); }
/* complex a * b + c, as CUDA computes it: real (a.x b.x + c.x) - a.y b.y,
 * imaginary (a.x b.y + c.y) + a.y b.x, each step an fma */
static __host__ __device__ inline __CU_T2 __hcmadd(__CU_T2 a, __CU_T2 b, __CU_T2 c) {
  return __CU_T2(__hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x)), __hfma(a.y, b.x, __hfma(a.x, b.y, c.y)));
}

/* ---- comparisons: ordered ones are false, unordered (..u) ones true,
 * where an operand is NaN; the pair forms give 1.0 or 0.0 per element,
 * _mask 0xffff or 0 per element, __hb...2 whether both hold ---- */
static __host__ __device__ inline bool __hisnan(__CU_T a) { return __CU_ISNAN(a); }
static __host__ __device__ inline int __hisinf(__CU_T a) {
  return (a.__x & 0x7fffu) != __CU_INF ? 0 : (a.__x & 0x8000u) ? -1 : 1;
}
static __host__ __device__ inline __CU_T2 __hisnan2(__CU_T2 a) {
  return __CU_T2(__CU_MK((unsigned short)(__hisnan(a.x) ? __CU_ONE : 0u)), __CU_MK((unsigned short)(__hisnan(a.y) ? __CU_ONE : 0u)));
}
#define __CU_CMP(N, EXPR)                                                                      \
  static __host__ __device__ inline bool __h##N(__CU_T a, __CU_T b) {                          \
    float x = __CU_TOF(a), y = __CU_TOF(b);                                                    \
    return EXPR;                                                                               \
  }                                                                                            \
  static __host__ __device__ inline __CU_T2 __h##N##2(__CU_T2 a, __CU_T2 b) {                  \
    return __CU_T2(__CU_MK((unsigned short)(__h##N(a.x, b.x) ? __CU_ONE : 0u)),                \
                   __CU_MK((unsigned short)(__h##N(a.y, b.y) ? __CU_ONE : 0u)));               \
  }                                                                                            \
  static __host__ __device__ inline unsigned int __h##N##2_mask(__CU_T2 a, __CU_T2 b) {        \
    return (__h##N(a.x, b.x) ? 0xffffu : 0u) | (__h##N(a.y, b.y) ? 0xffff0000u : 0u);          \
  }                                                                                            \
  static __host__ __device__ inline bool __hb##N##2(__CU_T2 a, __CU_T2 b) { return __h##N(a.x, b.x) && __h##N(a.y, b.y); }
__CU_CMP(eq, x == y)
__CU_CMP(ne, x < y || x > y)
__CU_CMP(le, x <= y)
__CU_CMP(ge, x >= y)
__CU_CMP(lt, x < y)
__CU_CMP(gt, x > y)
__CU_CMP(equ, !(x < y || x > y))
__CU_CMP(neu, !(x == y))
__CU_CMP(leu, !(x > y))
__CU_CMP(geu, !(x < y))
__CU_CMP(ltu, !(x >= y))
__CU_CMP(gtu, !(x <= y))
#undef __CU_CMP
/* max and min: one NaN operand gives the other, two the canonical NaN
 * (_nan: one is enough); +0 counts as above -0 */
static __host__ __device__ inline __CU_T __cu_max(__CU_T a, __CU_T b, int nan) {
  if (__hisnan(a) || __hisnan(b)) return nan || (__hisnan(a) && __hisnan(b)) ? __CU_MK(0x7fff) : __hisnan(a) ? b : a;
  float x = __CU_TOF(a), y = __CU_TOF(b);
  if (x == y) return (a.__x & 0x8000u) ? b : a;
  return x > y ? a : b;
}
static __host__ __device__ inline __CU_T __cu_min(__CU_T a, __CU_T b, int nan) {
  if (__hisnan(a) || __hisnan(b)) return nan || (__hisnan(a) && __hisnan(b)) ? __CU_MK(0x7fff) : __hisnan(a) ? b : a;
  float x = __CU_TOF(a), y = __CU_TOF(b);
  if (x == y) return (a.__x & 0x8000u) ? a : b;
  return x < y ? a : b;
}
static __host__ __device__ inline __CU_T __hmax(__CU_T a, __CU_T b) { return __cu_max(a, b, 0); }
static __host__ __device__ inline __CU_T __hmin(__CU_T a, __CU_T b) { return __cu_min(a, b, 0); }
static __host__ __device__ inline __CU_T __hmax_nan(__CU_T a, __CU_T b) { return __cu_max(a, b, 1); }
static __host__ __device__ inline __CU_T __hmin_nan(__CU_T a, __CU_T b) { return __cu_min(a, b, 1); }
__CU_V2(__hmax2, __hmax)
__CU_V2(__hmin2, __hmin)
__CU_V2(__hmax2_nan, __hmax_nan)
__CU_V2(__hmin2_nan, __hmin_nan)
#undef __CU_V2

/* ---- math functions: h<name> and h2<name> ---- */
#define __CU_M(N, EXPR)                                                                         \
  static __host__ __device__ inline __CU_T h##N(__CU_T a) {                                     \
    float x = __CU_TOF(a);                                                                      \
    return EXPR;                                                                                \
  }                                                                                             \
  static __host__ __device__ inline __CU_T2 h2##N(__CU_T2 a) { return __CU_T2(h##N(a.x), h##N(a.y)); }
__CU_M(trunc, __CU_RN(truncf(x)))
__CU_M(ceil, __CU_RN(ceilf(x)))
__CU_M(floor, __CU_RN(floorf(x)))
__CU_M(rint, __CU_RN(rintf(x)))
__CU_M(sqrt, __CU_RN(sqrtf(x)))
__CU_M(rcp, __CU_RN(1.0f / x))
/* (in double, rounded straight to the format: 1 / sqrt in float rounds twice) */
__CU_M(rsqrt, __CU_MK(__cu_d2f16(1.0 / sqrt((double)x), 0, 0, __CU_FMT)))
__CU_M(exp, __CU_RN(expf(x)))
__CU_M(exp2, __CU_RN(exp2f(x)))
__CU_M(exp10, __CU_RN(exp10f(x)))
__CU_M(log, __CU_RN(logf(x)))
__CU_M(log2, __CU_RN(log2f(x)))
__CU_M(log10, __CU_RN(log10f(x)))
__CU_M(sin, __CU_RN(sinf(x)))
__CU_M(cos, __CU_RN(cosf(x)))
__CU_M(tanh, __CU_RN(tanhf(x)))
__CU_M(tanh_approx, __CU_RN(tanhf(x)))
#undef __CU_M

/* ---- operators: the ordered comparisons but !=, which is unordered;
 * on pairs, whether both elements compare so ---- */
static __host__ __device__ inline __CU_T operator+(__CU_T a, __CU_T b) { return __hadd(a, b); }
static __host__ __device__ inline __CU_T operator-(__CU_T a, __CU_T b) { return __hsub(a, b); }
static __host__ __device__ inline __CU_T operator*(__CU_T a, __CU_T b) { return __hmul(a, b); }
static __host__ __device__ inline __CU_T operator/(__CU_T a, __CU_T b) { return __hdiv(a, b); }
static __host__ __device__ inline __CU_T operator+(__CU_T a) { return a; }
static __host__ __device__ inline __CU_T operator-(__CU_T a) { return __hneg(a); }
static __host__ __device__ inline __CU_T &operator+=(__CU_T &a, __CU_T b) { a = __hadd(a, b); return a; }
static __host__ __device__ inline __CU_T &operator-=(__CU_T &a, __CU_T b) { a = __hsub(a, b); return a; }
static __host__ __device__ inline __CU_T &operator*=(__CU_T &a, __CU_T b) { a = __hmul(a, b); return a; }
static __host__ __device__ inline __CU_T &operator/=(__CU_T &a, __CU_T b) { a = __hdiv(a, b); return a; }
static __host__ __device__ inline __CU_T &operator++(__CU_T &a) { a = __hadd(a, __CU_MK((unsigned short)__CU_ONE)); return a; }
static __host__ __device__ inline __CU_T &operator--(__CU_T &a) { a = __hsub(a, __CU_MK((unsigned short)__CU_ONE)); return a; }
static __host__ __device__ inline __CU_T operator++(__CU_T &a, int) {
  __CU_T o = a;
  a = __hadd(a, __CU_MK((unsigned short)__CU_ONE));
  return o;
}
static __host__ __device__ inline __CU_T operator--(__CU_T &a, int) {
  __CU_T o = a;
  a = __hsub(a, __CU_MK((unsigned short)__CU_ONE));
  return o;
}
static __host__ __device__ inline bool operator==(__CU_T a, __CU_T b) { return __heq(a, b); }
static __host__ __device__ inline bool operator!=(__CU_T a, __CU_T b) { return __hneu(a, b); }
static __host__ __device__ inline bool operator<(__CU_T a, __CU_T b) { return __hlt(a, b); }
static __host__ __device__ inline bool operator<=(__CU_T a, __CU_T b) { return __hle(a, b); }
static __host__ __device__ inline bool operator>(__CU_T a, __CU_T b) { return __hgt(a, b); }
static __host__ __device__ inline bool operator>=(__CU_T a, __CU_T b) { return __hge(a, b); }
static __host__ __device__ inline __CU_T2 operator+(__CU_T2 a, __CU_T2 b) { return __hadd2(a, b); }
static __host__ __device__ inline __CU_T2 operator-(__CU_T2 a, __CU_T2 b) { return __hsub2(a, b); }
static __host__ __device__ inline __CU_T2 operator*(__CU_T2 a, __CU_T2 b) { return __hmul2(a, b); }
static __host__ __device__ inline __CU_T2 operator/(__CU_T2 a, __CU_T2 b) { return __h2div(a, b); }
static __host__ __device__ inline __CU_T2 operator+(__CU_T2 a) { return a; }
static __host__ __device__ inline __CU_T2 operator-(__CU_T2 a) { return __hneg2(a); }
static __host__ __device__ inline __CU_T2 &operator+=(__CU_T2 &a, __CU_T2 b) { a = __hadd2(a, b); return a; }
static __host__ __device__ inline __CU_T2 &operator-=(__CU_T2 &a, __CU_T2 b) { a = __hsub2(a, b); return a; }
static __host__ __device__ inline __CU_T2 &operator*=(__CU_T2 &a, __CU_T2 b) { a = __hmul2(a, b); return a; }
static __host__ __device__ inline __CU_T2 &operator/=(__CU_T2 &a, __CU_T2 b) { a = __h2div(a, b); return a; }
static __host__ __device__ inline __CU_T2 &operator++(__CU_T2 &a) {
  __CU_T one = __CU_MK((unsigned short)__CU_ONE);
  a = __hadd2(a, __CU_T2(one, one));
  return a;
}
static __host__ __device__ inline __CU_T2 &operator--(__CU_T2 &a) {
  __CU_T one = __CU_MK((unsigned short)__CU_ONE);
  a = __hsub2(a, __CU_T2(one, one));
  return a;
}
static __host__ __device__ inline __CU_T2 operator++(__CU_T2 &a, int) {
  __CU_T2 o = a;
  ++a;
  return o;
}
static __host__ __device__ inline __CU_T2 operator--(__CU_T2 &a, int) {
  __CU_T2 o = a;
  --a;
  return o;
}
static __host__ __device__ inline bool operator==(__CU_T2 a, __CU_T2 b) { return __hbeq2(a, b); }
static __host__ __device__ inline bool operator!=(__CU_T2 a, __CU_T2 b) { return __hbneu2(a, b); }
static __host__ __device__ inline bool operator<(__CU_T2 a, __CU_T2 b) { return __hblt2(a, b); }
static __host__ __device__ inline bool operator<=(__CU_T2 a, __CU_T2 b) { return __hble2(a, b); }
static __host__ __device__ inline bool operator>(__CU_T2 a, __CU_T2 b) { return __hbgt2(a, b); }
static __host__ __device__ inline bool operator>=(__CU_T2 a, __CU_T2 b) { return __hbge2(a, b); }

/* ---- device code: shuffles, loads and stores with cache hints, atomicAdd ---- */
#if defined(__CUCC_PARSE__) || defined(__CUCC_HOST_DEVDECLS__)
/* CUDA's shuffles of the scalar and the pair: intrinsics, as
 * device_functions.h's (the frontend moves a record's bits as an integer
 * of its size: parse.c, warp_call) */
#define __CU_SHFL(T)                                                                           \
  __device__ T __shfl_sync(unsigned int mask, T var, int src, int width = 32);                 \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);   \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32);
__CU_SHFL(__CU_T)
__CU_SHFL(__CU_T2)
#undef __CU_SHFL
/* (device_functions.h's: the frontend makes them plain loads and stores) */
#define __CU_LDST(T)                                                                             \
  __device__ T __ldg(const T *p); __device__ T __ldcg(const T *p); __device__ T __ldca(const T *p); \
  __device__ T __ldcs(const T *p); __device__ T __ldlu(const T *p); __device__ T __ldcv(const T *p); \
  __device__ void __stcg(T *p, T v); __device__ void __stcs(T *p, T v); __device__ void __stwb(T *p, T v); \
  __device__ void __stwt(T *p, T v);
__CU_LDST(__CU_T)
__CU_LDST(__CU_T2)
#undef __CU_LDST
/* compare-and-swap loops; the first guesses 0, so that only atomics touch
 * the location. A pair is one 32-bit atomic (CUDA: each element atomic). */
static __device__ inline __CU_T atomicAdd(__CU_T *p, __CU_T v) {
  unsigned short *q = (unsigned short *)p, cur = 0, old;
  do {
    old = cur;
    cur = atomicCAS(q, old, __hadd(__CU_MK(old), v).__x);
  } while (cur != old);
  return __CU_MK(old);
}
static __device__ inline __CU_T2 atomicAdd(__CU_T2 *p, __CU_T2 v) {
  unsigned int *q = (unsigned int *)p, cur = 0, old;
  __CU_T2 o;
  do {
    old = cur;
    o = __CU_T2(__CU_MK((unsigned short)(old & 0xffffu)), __CU_MK((unsigned short)(old >> 16)));
    __CU_T2 s = __hadd2(o, v);
    cur = atomicCAS(q, old, (unsigned int)s.x.__x | (unsigned int)s.y.__x << 16);
  } while (cur != old);
  return o;
}
#endif

#undef __CU_RN
#undef __CU_ISNAN

/* device_functions.h: what device code may call (our own header).
 * The true intrinsics (barriers, fences, warp collectives, atomics) are only
 * declared, for libclang: the frontend recognizes them by name. Everything
 * else is an ordinary inline function that cucc compiles like user code. */
#ifndef CUCC_DEVICE_FUNCTIONS_H
#define CUCC_DEVICE_FUNCTIONS_H
#include "host_defines.h"
#include "vector_types.h"

#ifdef __cplusplus
/* CUDA's min/max work in host and device code, on every integer and
 * floating type (mixed signed/unsigned compare as unsigned, as in CUDA). */
#define CUCC_MINMAX(T)                                                              \
  static __host__ __device__ inline T min(T a, T b) { return a < b ? a : b; }      \
  static __host__ __device__ inline T max(T a, T b) { return a > b ? a : b; }
CUCC_MINMAX(int)
CUCC_MINMAX(unsigned int)
CUCC_MINMAX(long)
CUCC_MINMAX(unsigned long)
CUCC_MINMAX(long long)
CUCC_MINMAX(unsigned long long)
#undef CUCC_MINMAX
static __host__ __device__ inline float min(float a, float b) { return fminf(a, b); }
static __host__ __device__ inline float max(float a, float b) { return fmaxf(a, b); }
static __host__ __device__ inline double min(double a, double b) { return fmin(a, b); }
static __host__ __device__ inline double max(double a, double b) { return fmax(a, b); }
static __host__ __device__ inline unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
static __host__ __device__ inline unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
static __host__ __device__ inline unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
static __host__ __device__ inline unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
#define CUCC_MINMAX2(S, U)                                                                      \
  static __host__ __device__ inline U min(S a, U b) { return min((U)a, b); }                    \
  static __host__ __device__ inline U min(U a, S b) { return min(a, (U)b); }                    \
  static __host__ __device__ inline U max(S a, U b) { return max((U)a, b); }                    \
  static __host__ __device__ inline U max(U a, S b) { return max(a, (U)b); }
CUCC_MINMAX2(long, unsigned long)
CUCC_MINMAX2(long long, unsigned long long)
#undef CUCC_MINMAX2
/* a float and a double compare as doubles, as in CUDA */
static __host__ __device__ inline double min(float a, double b) { return fmin((double)a, b); }
static __host__ __device__ inline double max(float a, double b) { return fmax((double)a, b); }
static __host__ __device__ inline double min(double a, float b) { return fmin(a, (double)b); }
static __host__ __device__ inline double max(double a, float b) { return fmax(a, (double)b); }

/* the orders and scopes of CUDA 12.8's __nv_atomic_* (numbered as CUDA's) */
enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL,
       __NV_ATOMIC_SEQ_CST };
enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER, __NV_THREAD_SCOPE_DEVICE,
       __NV_THREAD_SCOPE_SYSTEM };

/* A conditional graph node's value, set by device code: the handle is the
 * address of the value (runtime/src/graph.c) */
static __device__ inline void cudaGraphSetConditional(cudaGraphConditionalHandle h, unsigned int value) {
  *(volatile unsigned int *)h = value;
}

/* Math functions CUDA offers in host and device code that the C library
 * lacks (rsqrtf is used by host-device code such as vector helpers). */
static __host__ __device__ inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
static __host__ __device__ inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
static __host__ __device__ inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static __host__ __device__ inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static __host__ __device__ inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static __host__ __device__ inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static __host__ __device__ inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static __host__ __device__ inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static __host__ __device__ inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static __host__ __device__ inline double rcbrt(double x) { return 1.0 / cbrt(x); }
static __host__ __device__ inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }
static __host__ __device__ inline float normcdff(float x) { return 0.5f * erfcf(-x * 0.70710678f); }
/* erf's inverse: a closed-form first guess refined by Newton steps on erf */
static __host__ __device__ inline double erfinv(double y) {
  if (!(y > -1.0 && y < 1.0)) return y == 1.0 ? HUGE_VAL : y == -1.0 ? -HUGE_VAL : NAN;
  double l = log((1.0 - y) * (1.0 + y)), t = 4.3307467508245 + 0.5 * l;
  double x = sqrt(sqrt(t * t - l / 0.147) - t);
  x = y < 0 ? -x : x;
  for (int i = 0; i < 4; i++) x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
  return x;
}
static __host__ __device__ inline double erfcinv(double y) { return erfinv(1.0 - y); }
static __host__ __device__ inline double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
static __host__ __device__ inline float erfinvf(float y) { return (float)erfinv(y); }
static __host__ __device__ inline float erfcinvf(float y) { return (float)erfcinv(y); }
static __host__ __device__ inline float normcdfinvf(float p) { return (float)normcdfinv(p); }
/* __trap(): the kernel stops and its launch fails (cudaErrorLaunchFailure,
 * sticky), as on a GPU: the trap instruction's signal ends the block and
 * names it (runtime/src/launch.c). __nanosleep(): nothing to wait for (a
 * block's warps run one after another between barriers). */
static __device__ inline void __trap(void) { __builtin_trap(); }
static __device__ inline void __nanosleep(unsigned int ns) { (void)ns; }
#endif

/* The intrinsics and the bit functions are declared to the host unit too
 * where the program includes CUB (__CUCC_HOST_DEVDECLS__, driver/compile.c):
 * the host compiler parses CUB's __device__ functions, never emits them. */
/* The built-in variables are declared to the host unit always, as nvcc's
 * host pass has them (device_launch_parameters.h): what the host unit keeps
 * of device code may name them, and never runs there: a __device__
 * constructor's member initializers (`tid(threadIdx.x)`), a default member
 * initializer (`int t = threadIdx.x;`). Nothing defines them: host code
 * that reads one fails to link, as it cannot run on a GPU either. */
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;
#if defined(__CUCC_PARSE__) || defined(__CUCC_HOST_DEVDECLS__)

/* ---- intrinsics the frontend models by name ---- */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ unsigned int __ballot(int predicate);
__device__ int __any(int predicate);
__device__ int __all(int predicate);
#define CUCC_SHFL(T)                                                                      \
  __device__ T __shfl_sync(unsigned int mask, T var, int src, int width = 32);           \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32);   \
  __device__ T __shfl(T var, int src, int width = 32);                                   \
  __device__ T __shfl_up(T var, unsigned int delta, int width = 32);                     \
  __device__ T __shfl_down(T var, unsigned int delta, int width = 32);                   \
  __device__ T __shfl_xor(T var, int lane_mask, int width = 32);                         \
  __device__ unsigned int __match_any_sync(unsigned int mask, T value);                  \
  __device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
CUCC_SHFL(int)
CUCC_SHFL(unsigned int)
CUCC_SHFL(long)
CUCC_SHFL(unsigned long)
CUCC_SHFL(long long)
CUCC_SHFL(unsigned long long)
CUCC_SHFL(float)
CUCC_SHFL(double)
#undef CUCC_SHFL
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);
/* every atomic in its three scopes: name, name_block, name_system (all act
 * on the whole machine's memory here, so all three are the same) */
#define CUCC_ATOMIC2(name, T)                                                   \
  __device__ T name(T *address, T val); __device__ T name##_block(T *address, T val); \
  __device__ T name##_system(T *address, T val);
#define CUCC_ATOMICS(name)                                                    \
  CUCC_ATOMIC2(name, int) CUCC_ATOMIC2(name, unsigned int) CUCC_ATOMIC2(name, unsigned long long)
CUCC_ATOMICS(atomicAdd)
CUCC_ATOMICS(atomicExch)
CUCC_ATOMICS(atomicMin)
CUCC_ATOMICS(atomicMax)
CUCC_ATOMICS(atomicAnd)
CUCC_ATOMICS(atomicOr)
CUCC_ATOMICS(atomicXor)
CUCC_ATOMIC2(atomicSub, int)
CUCC_ATOMIC2(atomicSub, unsigned int)
CUCC_ATOMIC2(atomicAdd, float)
CUCC_ATOMIC2(atomicAdd, double)
CUCC_ATOMIC2(atomicExch, float)
CUCC_ATOMIC2(atomicMin, long long)
CUCC_ATOMIC2(atomicMax, long long)
CUCC_ATOMIC2(atomicInc, unsigned int)
CUCC_ATOMIC2(atomicDec, unsigned int)
#define CUCC_CAS(T)                                                           \
  __device__ T atomicCAS(T *address, T compare, T val);                       \
  __device__ T atomicCAS_block(T *address, T compare, T val);                 \
  __device__ T atomicCAS_system(T *address, T compare, T val);
CUCC_CAS(int) CUCC_CAS(unsigned int) CUCC_CAS(unsigned long long) CUCC_CAS(unsigned short)
#undef CUCC_CAS
#undef CUCC_ATOMICS
#undef CUCC_ATOMIC2
/* CUDA 12.8's atomics with an order and a scope (cucc_dev.h's cu_nv_*) */
#define CUCC_NV(T)                                                                               \
  __device__ T __nv_atomic_fetch_add(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM); \
  __device__ T __nv_atomic_fetch_sub(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM); \
  __device__ void __nv_atomic_add(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);    \
  __device__ void __nv_atomic_sub(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
#define CUCC_NV_INT(T)                                                                           \
  CUCC_NV(T)                                                                                     \
  __device__ T __nv_atomic_fetch_and(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM); \
  __device__ T __nv_atomic_fetch_or(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);  \
  __device__ T __nv_atomic_fetch_xor(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM); \
  __device__ T __nv_atomic_fetch_min(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM); \
  __device__ T __nv_atomic_fetch_max(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM); \
  __device__ void __nv_atomic_and(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);    \
  __device__ void __nv_atomic_or(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);     \
  __device__ void __nv_atomic_xor(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);    \
  __device__ void __nv_atomic_min(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);    \
  __device__ void __nv_atomic_max(T *p, T v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
CUCC_NV_INT(int) CUCC_NV_INT(unsigned int) CUCC_NV_INT(long long) CUCC_NV_INT(unsigned long long)
CUCC_NV(float) CUCC_NV(double)
#undef CUCC_NV_INT
#undef CUCC_NV
template <class T> __device__ T __nv_atomic_load_n(const T *p, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_load(const T *p, T *ret, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U>
__device__ void __nv_atomic_store_n(T *p, U v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_store(T *p, T *v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U>
__device__ T __nv_atomic_exchange_n(T *p, U v, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ void __nv_atomic_exchange(T *p, T *v, T *ret, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U>
__device__ bool __nv_atomic_compare_exchange_n(T *p, T *expected, U desired, bool weak, int success_order,
                                               int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ bool __nv_atomic_compare_exchange(T *p, T *expected, T *desired, bool weak, int success_order,
                                             int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
__device__ long long clock64(void);
/* clock() in device code: CUDA's device overload of the C library's (clang
 * picks it by target); the frontend maps both to cu_clock64 */
#include <time.h>
extern "C" __device__ clock_t clock(void);
/* loads and stores with cache hints (__ldg: read-only) */
#define CUCC_LDG(T)                                                                              \
  __device__ T __ldg(const T *p); __device__ T __ldcg(const T *p); __device__ T __ldca(const T *p); \
  __device__ T __ldcs(const T *p); __device__ T __ldlu(const T *p); __device__ T __ldcv(const T *p); \
  __device__ void __stcg(T *p, T v); __device__ void __stcs(T *p, T v); __device__ void __stwb(T *p, T v); \
  __device__ void __stwt(T *p, T v);
CUCC_LDG(char) CUCC_LDG(signed char) CUCC_LDG(unsigned char) CUCC_LDG(short)
CUCC_LDG(unsigned short) CUCC_LDG(int) CUCC_LDG(unsigned int) CUCC_LDG(long)
CUCC_LDG(unsigned long) CUCC_LDG(long long) CUCC_LDG(unsigned long long)
CUCC_LDG(float) CUCC_LDG(double) CUCC_LDG(char2) CUCC_LDG(char4) CUCC_LDG(uchar2) CUCC_LDG(uchar4)
CUCC_LDG(short2) CUCC_LDG(short4) CUCC_LDG(ushort2) CUCC_LDG(ushort4) CUCC_LDG(int2) CUCC_LDG(int4)
CUCC_LDG(uint2) CUCC_LDG(uint4) CUCC_LDG(longlong2) CUCC_LDG(ulonglong2) CUCC_LDG(float2) CUCC_LDG(float4)
CUCC_LDG(double2)
#undef CUCC_LDG
#endif

#if defined(__CUCC_PARSE__)
/* ---- fast math and conversions: plain C, compiled by cucc ---- */
/* (the approximations CUDA's bounds allow, vectorized in lane loops:
 * cuda_math.h, cucc_dev.h) */
static __device__ inline float __expf(float x) { return __cucc_vexpf(x); }
static __device__ inline float __exp10f(float x) { return __cucc_vexp10f(x); }
static __device__ inline float __logf(float x) { return __cucc_vlogf(x); }
static __device__ inline float __log2f(float x) { return __cucc_vlog2f(x); }
static __device__ inline float __log10f(float x) { return __cucc_vlog10f(x); }
static __device__ inline float __sinf(float x) { return __cucc_vsinf(x); }
static __device__ inline float __cosf(float x) { return __cucc_vcosf(x); }
static __device__ inline float __tanf(float x) { return tanf(x); }
static __device__ inline float __powf(float x, float y) { return __cucc_vpowf(x, y); }
static __device__ inline float __fdividef(float x, float y) { return x / y; }
static __device__ inline float fdividef(float x, float y) { return x / y; }
static __device__ inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x != x ? 0.0f : x; }
static __device__ inline float sinpif(float x) { return sinf(3.14159265358979323846f * x); }
static __device__ inline float cospif(float x) { return cosf(3.14159265358979323846f * x); }
static __device__ inline double sinpi(double x) { return sin(3.14159265358979323846 * x); }
static __device__ inline double cospi(double x) { return cos(3.14159265358979323846 * x); }
static __device__ inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
static __device__ inline void sincospi(double x, double *s, double *c) { *s = sinpi(x); *c = cospi(x); }
static __device__ inline void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }
static __device__ inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static __device__ inline float __tanhf(float x) { return tanhf(x); }

/* ---- CUDA's own math functions: norms of 2, 3, 4 or n elements and
 * their reciprocals (scaled by the largest magnitude so that squares
 * neither overflow nor underflow), erfcx, the Bessel functions I0 and I1 */
static __device__ inline double __cucc_norm(int n, const double *p) {
  double m = 0, s = 0;
  for (int k = 0; k < n; k++) {
    double a = fabs(p[k]);
    if (a > m || a != a) m = a;
  }
  if (m == 0 || m != m || __builtin_isinf(m)) {
    for (int k = 0; k < n; k++)
      if (__builtin_isinf(p[k])) return __builtin_inf();   /* inf beats NaN, as in hypot */
    return m;
  }
  for (int k = 0; k < n; k++) s += (p[k] / m) * (p[k] / m);
  return m * sqrt(s);
}
static __device__ inline double norm(int dim, const double *p) { return __cucc_norm(dim, p); }
static __device__ inline double rnorm(int dim, const double *p) { return 1.0 / __cucc_norm(dim, p); }
static __device__ inline float normf(int dim, const float *p) {
  double m = 0, s = 0;   /* in double: no scaling needed for floats */
  int inf = 0;
  for (int k = 0; k < dim; k++) {
    s += (double)p[k] * p[k];
    inf |= __builtin_isinf(p[k]);
    if (p[k] != p[k]) m = p[k];
  }
  return inf ? __builtin_inff() : m != m ? (float)m : (float)sqrt(s);
}
static __device__ inline float rnormf(int dim, const float *p) { return 1.0f / normf(dim, p); }
static __device__ inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }
static __device__ inline float rhypotf(float a, float b) { return (float)(1.0 / hypot((double)a, (double)b)); }
static __device__ inline double norm3d(double a, double b, double c) { double v[3] = {a, b, c}; return __cucc_norm(3, v); }
static __device__ inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
static __device__ inline double norm4d(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return __cucc_norm(4, v); }
static __device__ inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
static __device__ inline float norm3df(float a, float b, float c) { float v[3] = {a, b, c}; return normf(3, v); }
static __device__ inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
static __device__ inline float norm4df(float a, float b, float c, float d) { float v[4] = {a, b, c, d}; return normf(4, v); }
static __device__ inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
/* erfcx(x) = exp(x^2) erfc(x): directly while erfc does not underflow (x^2
 * split exactly into two doubles by an fma), then its asymptotic series */
static __device__ inline double erfcx(double x) {
  if (x < 25.0) {
    double p = x * x, e = fma(x, x, -p);
    return exp(p) * erfc(x) * (1.0 + e);
  }
  if (__builtin_isinf(x)) return 0.0;
  double t = 1.0 / (2.0 * x * x), s = 1.0, term = 1.0;
  for (int k = 1; k < 10; k++) {
    term *= -(2 * k - 1) * t;
    s += term;
  }
  return s / (x * 1.7724538509055160273);
}
static __device__ inline float erfcxf(float x) { return (float)erfcx(x); }
/* I0 and I1: their power series while it is short, then the asymptotic
 * series e^x / sqrt(2 pi x) (1 - (4n^2-1)/(8x) + ...) */
static __device__ inline double __cucc_bessel_i(double x, int n) {
  double a = fabs(x), r;
  if (a != a) return a;
  if (a < 30.0) {
    double q = a * a / 4, term = n ? a / 2 : 1.0, s = term;
    for (int k = 1; k < 200 && term > s * 1e-18; k++) {
      term *= q / (k * (double)(k + n));
      s += term;
    }
    r = s;
  } else {
    double mu = 4.0 * n * n, term = 1.0, s = 1.0;
    for (int k = 1; k < 30; k++) {
      term *= -(mu - (2 * k - 1) * (2 * k - 1)) / (k * 8.0 * a);
      s += term;
      if (fabs(term) < 1e-17 * fabs(s)) break;
    }
    double e = exp(a / 2);   /* e^a in two halves: no overflow before the product */
    r = e * (s / sqrt(2 * 3.14159265358979323846 * a)) * e;
  }
  return n && x < 0 ? -r : r;
}
static __device__ inline double cyl_bessel_i0(double x) { return __cucc_bessel_i(x, 0); }
static __device__ inline double cyl_bessel_i1(double x) { return __cucc_bessel_i(x, 1); }
static __device__ inline float cyl_bessel_i0f(float x) { return (float)__cucc_bessel_i(x, 0); }
static __device__ inline float cyl_bessel_i1f(float x) { return (float)__cucc_bessel_i(x, 1); }

/* ---- arithmetic and conversions in a chosen rounding: _rn nearest even,
 * _rz toward zero, _ru up, _rd down. The result is the nearest one, moved
 * one step where the exact error (from an error-free transform: TwoSum for
 * sums, an fma for products, quotients and square roots) says the exact
 * value lies beyond it in the asked direction. A result that overflowed
 * to infinity from finite operands comes back as the largest finite
 * value where the direction says so; an exact zero sum is -0 rounding
 * down. (Operands and results below the normal range are not exact.) */
/* (cucc_dev.h computes them: PTX's .rz/.rm/.rp arithmetic calls the same;
 * m: 0 nearest, 1 toward zero, 2 up, 3 down) */
__device__ __attribute__((const)) float __cu_dev_rndf(float, float, int, int);
__device__ __attribute__((const)) double __cu_dev_rnd(double, double, int, int);
__device__ __attribute__((const)) float __cu_dev_addf(float, float, int);
__device__ __attribute__((const)) float __cu_dev_mulf(float, float, int);
__device__ __attribute__((const)) float __cu_dev_divf(float, float, int);
__device__ __attribute__((const)) float __cu_dev_sqrtf(float, int);
__device__ __attribute__((const)) float __cu_dev_fmaf(float, float, float, int);
__device__ __attribute__((const)) double __cu_dev_add(double, double, int);
__device__ __attribute__((const)) double __cu_dev_mul(double, double, int);
__device__ __attribute__((const)) double __cu_dev_div(double, double, int);
__device__ __attribute__((const)) double __cu_dev_sqrt(double, int);
__device__ __attribute__((const)) double __cu_dev_fma(double, double, double, int);
#define CUCC_RMODE(M, N)                                                                               \
  static __device__ inline float __fadd_##M(float a, float b) { return __cu_dev_addf(a, b, N); }        \
  static __device__ inline float __fsub_##M(float a, float b) { return __cu_dev_addf(a, -b, N); }       \
  static __device__ inline float __fmul_##M(float a, float b) { return __cu_dev_mulf(a, b, N); }        \
  static __device__ inline float __fdiv_##M(float a, float b) { return __cu_dev_divf(a, b, N); }        \
  static __device__ inline float __frcp_##M(float a) { return __cu_dev_divf(1.0f, a, N); }              \
  static __device__ inline float __fsqrt_##M(float a) { return __cu_dev_sqrtf(a, N); }                  \
  static __device__ inline float __fmaf_##M(float a, float b, float c) { return __cu_dev_fmaf(a, b, c, N); } \
  static __device__ inline double __dadd_##M(double a, double b) { return __cu_dev_add(a, b, N); }      \
  static __device__ inline double __dsub_##M(double a, double b) { return __cu_dev_add(a, -b, N); }     \
  static __device__ inline double __dmul_##M(double a, double b) { return __cu_dev_mul(a, b, N); }      \
  static __device__ inline double __ddiv_##M(double a, double b) { return __cu_dev_div(a, b, N); }      \
  static __device__ inline double __drcp_##M(double a) { return __cu_dev_div(1.0, a, N); }              \
  static __device__ inline double __dsqrt_##M(double a) { return __cu_dev_sqrt(a, N); }                 \
  static __device__ inline double __fma_##M(double a, double b, double c) { return __cu_dev_fma(a, b, c, N); }
CUCC_RMODE(rn, 0) CUCC_RMODE(rz, 1) CUCC_RMODE(ru, 2) CUCC_RMODE(rd, 3)
#undef CUCC_RMODE
/* the "ieee" fma: the same (this CPU keeps subnormals in any case) */
static __device__ inline float __fmaf_ieee_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }
static __device__ inline float __fmaf_ieee_rz(float a, float b, float c) { return __fmaf_rz(a, b, c); }
static __device__ inline float __fmaf_ieee_ru(float a, float b, float c) { return __fmaf_ru(a, b, c); }
static __device__ inline float __fmaf_ieee_rd(float a, float b, float c) { return __fmaf_rd(a, b, c); }
/* floating to integer: rounded as asked, saturated to the type's range,
 * NaN to 0 (as the GPU's conversions do) */
static __device__ inline double __cucc_rint(double x, int m) {
  return m == 0 ? __builtin_rint(x) : m == 1 ? __builtin_trunc(x) : m == 2 ? __builtin_ceil(x) : __builtin_floor(x);
}
#define CUCC_F2I(NAME, T, LO, HI)                                                    \
  static __device__ inline T NAME(double x, int m) {                                 \
    if (x != x) return 0;                                                            \
    double r = __cucc_rint(x, m);                                                    \
    return r <= (double)(LO) ? (LO) : r >= (double)(HI) ? (HI) : (T)r;               \
  }
CUCC_F2I(__cucc_d2i, int, (-2147483647 - 1), 2147483647)
CUCC_F2I(__cucc_d2u, unsigned int, 0u, 4294967295u)
CUCC_F2I(__cucc_d2ll, long long, (-9223372036854775807ll - 1), 9223372036854775807ll)
CUCC_F2I(__cucc_d2ull, unsigned long long, 0ull, 18446744073709551615ull)
#undef CUCC_F2I
/* integer or double to a narrower floating type: nearest, then moved by
 * the sign of what was lost */
static __device__ inline float __cucc_ll2f(long long x, int m) {
  float r = (float)x;
  long long back = r >= 9.2233720368547758e18f ? 9223372036854775807ll : (long long)r;
  return __cu_dev_rndf(r, x > back ? 1.0f : x < back ? -1.0f : 0.0f, 1, m);
}
static __device__ inline float __cucc_ull2f(unsigned long long x, int m) {
  float r = (float)x;
  unsigned long long back = r >= 1.8446744073709552e19f ? 18446744073709551615ull : (unsigned long long)r;
  return __cu_dev_rndf(r, x > back ? 1.0f : x < back ? -1.0f : 0.0f, 1, m);
}
static __device__ inline double __cucc_ll2d(long long x, int m) {
  double r = (double)x;
  long long back = r >= 9.2233720368547758e18 ? 9223372036854775807ll : (long long)r;
  return __cu_dev_rnd(r, x > back ? 1.0 : x < back ? -1.0 : 0.0, 1, m);
}
static __device__ inline double __cucc_ull2d(unsigned long long x, int m) {
  double r = (double)x;
  unsigned long long back = r >= 1.8446744073709552e19 ? 18446744073709551615ull : (unsigned long long)r;
  return __cu_dev_rnd(r, x > back ? 1.0 : x < back ? -1.0 : 0.0, 1, m);
}
static __device__ inline float __cucc_d2f(double x, int m) {
  float r = (float)x;
  return __cu_dev_rndf(r, (float)(x - (double)r), __builtin_isfinite(x), m);
}
#define CUCC_CVT(M, N)                                                                                  \
  static __device__ inline int __float2int_##M(float x) { return __cucc_d2i(x, N); }                   \
  static __device__ inline unsigned int __float2uint_##M(float x) { return __cucc_d2u(x, N); }         \
  static __device__ inline long long __float2ll_##M(float x) { return __cucc_d2ll(x, N); }             \
  static __device__ inline unsigned long long __float2ull_##M(float x) { return __cucc_d2ull(x, N); }  \
  static __device__ inline int __double2int_##M(double x) { return __cucc_d2i(x, N); }                 \
  static __device__ inline unsigned int __double2uint_##M(double x) { return __cucc_d2u(x, N); }       \
  static __device__ inline long long __double2ll_##M(double x) { return __cucc_d2ll(x, N); }           \
  static __device__ inline unsigned long long __double2ull_##M(double x) { return __cucc_d2ull(x, N); }\
  static __device__ inline float __int2float_##M(int x) { return __cucc_ll2f(x, N); }                  \
  static __device__ inline float __uint2float_##M(unsigned int x) { return __cucc_ll2f(x, N); }        \
  static __device__ inline float __ll2float_##M(long long x) { return __cucc_ll2f(x, N); }             \
  static __device__ inline float __ull2float_##M(unsigned long long x) { return __cucc_ull2f(x, N); }  \
  static __device__ inline double __ll2double_##M(long long x) { return __cucc_ll2d(x, N); }           \
  static __device__ inline double __ull2double_##M(unsigned long long x) { return __cucc_ull2d(x, N); }\
  static __device__ inline float __double2float_##M(double x) { return __cucc_d2f(x, N); }
CUCC_CVT(rn, 0) CUCC_CVT(rz, 1) CUCC_CVT(ru, 2) CUCC_CVT(rd, 3)
#undef CUCC_CVT
/* exact in any rounding */
static __device__ inline double __int2double_rn(int x) { return (double)x; }
static __device__ inline double __uint2double_rn(unsigned int x) { return (double)x; }
#endif

#if defined(__CUCC_PARSE__) || defined(__CUCC_HOST_DEVDECLS__)
/* ---- bits ---- */
static __device__ inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static __device__ inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
static __device__ inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static __device__ inline int __ffs(int x) { return __builtin_ffs(x); }
static __device__ inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static __device__ inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
static __device__ inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned int)x) << 32) | __brev((unsigned int)(x >> 32));
}
static __device__ inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; i++) r |= (unsigned int)((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);
  return r;
}
static __device__ inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int sh) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)((v << (sh & 31u)) >> 32);
}
static __device__ inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int sh) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)(v >> (sh & 31u));
}
static __device__ inline int __mul24(int x, int y) {
  return (int)(((long long)(x << 8) >> 8) * ((long long)(y << 8) >> 8));
}
static __device__ inline unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
static __device__ inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static __device__ inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * y) >> 32);
}
static __device__ inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  /* the high half of a 64x64 product from 32-bit pieces */
  unsigned long long xl = x & 0xffffffffull, xh = x >> 32, yl = y & 0xffffffffull, yh = y >> 32;
  unsigned long long ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
  unsigned long long mid = (ll >> 32) + (lh & 0xffffffffull) + (hl & 0xffffffffull);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static __device__ inline long long __mul64hi(long long x, long long y) {
  unsigned long long h = __umul64hi((unsigned long long)x, (unsigned long long)y);
  if (x < 0) h -= (unsigned long long)y;
  if (y < 0) h -= (unsigned long long)x;
  return (long long)h;
}
static __device__ inline unsigned int __sad(int x, int y, unsigned int z) {
  return z + (unsigned int)(x > y ? x - y : y - x);
}
static __device__ inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return z + (x > y ? x - y : y - x);
}
static __device__ inline int __float_as_int(float x) { int r; memcpy(&r, &x, 4); return r; }
static __device__ inline unsigned int __float_as_uint(float x) { unsigned int r; memcpy(&r, &x, 4); return r; }
static __device__ inline float __int_as_float(int x) { float r; memcpy(&r, &x, 4); return r; }
static __device__ inline float __uint_as_float(unsigned int x) { float r; memcpy(&r, &x, 4); return r; }
static __device__ inline long long __double_as_longlong(double x) { long long r; memcpy(&r, &x, 8); return r; }
static __device__ inline double __longlong_as_double(long long x) { double r; memcpy(&r, &x, 8); return r; }
static __device__ inline int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
static __device__ inline int __double2loint(double x) { return (int)__double_as_longlong(x); }
static __device__ inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)(((unsigned long long)(unsigned int)hi << 32) | (unsigned int)lo));
}
/* halving adds, without the sum's overflow; _r rounds up */
static __device__ inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static __device__ inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static __device__ inline unsigned int __uhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b) >> 1); }
static __device__ inline unsigned int __urhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b + 1) >> 1); }
static __device__ inline unsigned short __nv_bswap16(unsigned short x) { return __builtin_bswap16(x); }
static __device__ inline unsigned int __nv_bswap32(unsigned int x) { return __builtin_bswap32(x); }
static __device__ inline unsigned long long __nv_bswap64(unsigned long long x) { return __builtin_bswap64(x); }
/* funnel shifts with the shift clamped to 32 (the others take it mod 32) */
static __device__ inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int sh) {
  return sh >= 32 ? lo : __funnelshift_l(lo, hi, sh);
}
static __device__ inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int sh) {
  return sh >= 32 ? hi : __funnelshift_r(lo, hi, sh);
}
/* the position of the offset-th set bit of mask counting up (offset > 0)
 * or down (< 0) from base, base itself first; offset 0: base if its bit is
 * set. None: 0xffffffff. */
static __device__ inline unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (offset == 0) return base < 32 && (mask >> base & 1u) ? base : 0xffffffffu;
  int step = offset > 0 ? 1 : -1, left = offset > 0 ? offset : -offset;
  for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
    if ((mask >> pos & 1u) && --left == 0) return (unsigned int)pos;
  return 0xffffffffu;
}
/* dot products: two 16-bit halves of a with two bytes of b (the low or
 * the high pair), four bytes with four, added to c; signed or unsigned */
static __device__ inline int __cucc_dp(unsigned int a, unsigned int b, int wa, int bofs, int n, int s) {
  int r = 0;
  for (int k = 0; k < n; k++) {
    int x = s ? (wa == 16 ? (int)(short)(a >> (16 * k)) : (int)(signed char)(a >> (8 * k)))
              : (int)((a >> (wa * k)) & ((1u << wa) - 1u));
    int y = s ? (int)(signed char)(b >> (8 * (k + bofs))) : (int)((b >> (8 * (k + bofs))) & 0xffu);
    r = (int)((unsigned int)r + (unsigned int)(x * y));
  }
  return r;
}
static __device__ inline int __dp2a_lo(int a, int b, int c) { return __cucc_dp(a, b, 16, 0, 2, 1) + c; }
static __device__ inline int __dp2a_hi(int a, int b, int c) { return __cucc_dp(a, b, 16, 2, 2, 1) + c; }
static __device__ inline unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)__cucc_dp(a, b, 16, 0, 2, 0) + c; }
static __device__ inline unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)__cucc_dp(a, b, 16, 2, 2, 0) + c; }
static __device__ inline int __dp4a(int a, int b, int c) { return __cucc_dp(a, b, 8, 0, 4, 1) + c; }
static __device__ inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)__cucc_dp(a, b, 8, 0, 4, 0) + c; }
/* the vector forms: the same on the vectors' bytes */
static __device__ inline unsigned int __cucc_s2(short x, short y) { return (unsigned short)x | (unsigned int)(unsigned short)y << 16; }
static __device__ inline unsigned int __cucc_c4(int x, int y, int z, int w) {
  return (x & 0xffu) | (y & 0xffu) << 8 | (z & 0xffu) << 16 | (unsigned int)(w & 0xff) << 24;
}
static __device__ inline int __dp2a_lo(short2 a, char4 b, int c) { return __dp2a_lo((int)__cucc_s2(a.x, a.y), (int)__cucc_c4(b.x, b.y, b.z, b.w), c); }
static __device__ inline int __dp2a_hi(short2 a, char4 b, int c) { return __dp2a_hi((int)__cucc_s2(a.x, a.y), (int)__cucc_c4(b.x, b.y, b.z, b.w), c); }
static __device__ inline unsigned int __dp2a_lo(ushort2 a, uchar4 b, unsigned int c) { return __dp2a_lo(__cucc_s2(a.x, a.y), __cucc_c4(b.x, b.y, b.z, b.w), c); }
static __device__ inline unsigned int __dp2a_hi(ushort2 a, uchar4 b, unsigned int c) { return __dp2a_hi(__cucc_s2(a.x, a.y), __cucc_c4(b.x, b.y, b.z, b.w), c); }
static __device__ inline int __dp4a(char4 a, char4 b, int c) { return __dp4a((int)__cucc_c4(a.x, a.y, a.z, a.w), (int)__cucc_c4(b.x, b.y, b.z, b.w), c); }
static __device__ inline unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) { return __dp4a(__cucc_c4(a.x, a.y, a.z, a.w), __cucc_c4(b.x, b.y, b.z, b.w), c); }
#include "cucc_simd.h"
#endif /* __CUCC_PARSE__ || __CUCC_HOST_DEVDECLS__ */

#if defined(__CUCC_PARSE__) && defined(__cplusplus)
/* the address spaces of a generic pointer (sm_20_intrinsics.h in CUDA),
 * through cucc_dev.h's helpers: __isConstant and __isGridConstant are 0
 * (a __constant__ variable or kernel parameter is not told apart from
 * global memory), and the global, local and constant "addresses" are the
 * generic ones */
__device__ unsigned __cu_dev_isshared(const void *p);
__device__ unsigned __cu_dev_islocal(const void *p);
__device__ size_t __cu_dev_to_shared(const void *p);
__device__ void *__cu_dev_from_shared(size_t a);
static __device__ inline unsigned int __isShared(const void *p) { return __cu_dev_isshared(p); }
static __device__ inline unsigned int __isLocal(const void *p) { return __cu_dev_islocal(p); }
static __device__ inline unsigned int __isGlobal(const void *p) { return !__cu_dev_isshared(p) && !__cu_dev_islocal(p); }
static __device__ inline unsigned int __isConstant(const void *p) { (void)p; return 0; }
static __device__ inline unsigned int __isGridConstant(const void *p) { (void)p; return 0; }
static __device__ inline size_t __cvta_generic_to_shared(const void *p) { return __cu_dev_to_shared(p); }
static __device__ inline void *__cvta_shared_to_generic(size_t a) { return __cu_dev_from_shared(a); }
static __device__ inline size_t __cvta_generic_to_global(const void *p) { return (size_t)p; }
static __device__ inline void *__cvta_global_to_generic(size_t a) { return (void *)a; }
static __device__ inline size_t __cvta_generic_to_local(const void *p) { return (size_t)p; }
static __device__ inline void *__cvta_local_to_generic(size_t a) { return (void *)a; }
static __device__ inline size_t __cvta_generic_to_constant(const void *p) { return (size_t)p; }
static __device__ inline void *__cvta_constant_to_generic(size_t a) { return (void *)a; }
static __device__ inline size_t __cvta_generic_to_grid_constant(const void *p) { return (size_t)p; }
static __device__ inline void *__cvta_grid_constant_to_generic(size_t a) { return (void *)a; }
#endif

#endif

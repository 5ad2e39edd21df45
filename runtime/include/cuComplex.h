/* cuComplex.h: CUDA's single and double precision complex numbers (our own
 * header), in host and device code: cuFloatComplex is a float2 (x the real
 * part, y the imaginary), cuDoubleComplex a double2, cuComplex the float
 * one. Division scales both operands by 1/(|re(y)| + |im(y)|) first and
 * the modulus by the larger part, so that neither overflows or underflows
 * in between where the result is representable; CUDA computes them the
 * same way. cuCfma(x, y, d) is x*y + d with each part's two products fused
 * in turn, as CUDA's. */
#ifndef CUCC_CUCOMPLEX_H
#define CUCC_CUCOMPLEX_H
#include "cuda_runtime.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

/* one definition for float (F: the suffix of the names, T the part's type) */
#define __CU_CPLX(C, T, F, MK, ABS, SQRT, FMA)                                                          \
  static __host__ __device__ inline T cuCreal##F(C x) { return x.x; }                                  \
  static __host__ __device__ inline T cuCimag##F(C x) { return x.y; }                                  \
  static __host__ __device__ inline C MK(T r, T i) {                                                   \
    C c;                                                                                               \
    c.x = r;                                                                                           \
    c.y = i;                                                                                           \
    return c;                                                                                          \
  }                                                                                                    \
  static __host__ __device__ inline C cuConj##F(C x) { return MK(x.x, -x.y); }                         \
  static __host__ __device__ inline C cuCadd##F(C x, C y) { return MK(x.x + y.x, x.y + y.y); }         \
  static __host__ __device__ inline C cuCsub##F(C x, C y) { return MK(x.x - y.x, x.y - y.y); }         \
  static __host__ __device__ inline C cuCmul##F(C x, C y) {                                            \
    return MK(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);                                           \
  }                                                                                                    \
  static __host__ __device__ inline C cuCdiv##F(C x, C y) {                                            \
    T s = ABS(y.x) + ABS(y.y), r = (T)1 / s;                                                           \
    T xr = x.x * r, xi = x.y * r, yr = y.x * r, yi = y.y * r;                                          \
    T n = (T)1 / (yr * yr + yi * yi);                                                                  \
    return MK((xr * yr + xi * yi) * n, (xi * yr - xr * yi) * n);                                       \
  }                                                                                                    \
  /* |x|: v * sqrt(1 + (w/v)^2) with v the larger part; v + w where that                              \
   * is meaningless (zero, an infinity or NaN) */                                                      \
  static __host__ __device__ inline T cuCabs##F(C x) {                                                 \
    T a = ABS(x.x), b = ABS(x.y), v = a > b ? a : b, w = a > b ? b : a;                                \
    if (v == 0 || !(v <= (T)__builtin_huge_val()) || !(w <= v)) return v + w;                          \
    T t = w / v;                                                                                       \
    return v * SQRT((T)1 + t * t);                                                                     \
  }                                                                                                    \
  static __host__ __device__ inline C cuCfma##F(C x, C y, C d) {                                       \
    T re = FMA(x.x, y.x, d.x), im = FMA(x.x, y.y, d.y);                                                \
    return MK(FMA(-x.y, y.y, re), FMA(x.y, y.x, im));                                                  \
  }
__CU_CPLX(cuFloatComplex, float, f, make_cuFloatComplex, __builtin_fabsf, __builtin_sqrtf, __builtin_fmaf)
__CU_CPLX(cuDoubleComplex, double, , make_cuDoubleComplex, __builtin_fabs, __builtin_sqrt, __builtin_fma)
#undef __CU_CPLX

static __host__ __device__ inline cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
static __host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)c.x, (double)c.y);
}
static __host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}
#endif

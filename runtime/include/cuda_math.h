/* cuda_math.h: the C and C++ math library in device code (our own header,
 * read only by libclang: __CUCC_PARSE__). Host code keeps the system's
 * library; device code gets these static __device__ overloads, as clang's
 * own CUDA headers do, each a call of the compiler builtin that the
 * generated C hands to the C compiler (which maps it to libm or inlines it).
 * Generated once from the lists of C99 math functions; edit freely. */
#ifndef CUCC_CUDA_MATH_H
#define CUCC_CUDA_MATH_H
#if defined(__CUCC_PARSE__)
/* Float functions that vectorize in lane loops (cucc_dev.h: glibc's
 * libmvec variants where there are, within CUDA's error bounds for these:
 * sinf, cosf 2 ulp; exp2f 2); the fast intrinsics' too. */
extern "C" __device__ float __cucc_vsinf(float), __cucc_vcosf(float), __cucc_vexp2f(float);
extern "C" __device__ float __cucc_vexpf(float), __cucc_vlogf(float), __cucc_vlog2f(float), __cucc_vlog10f(float);
extern "C" __device__ float __cucc_vexp10f(float), __cucc_vpowf(float, float);
/* expf, logf, log2f, log10f: our own, vectorizable, within 0.503 ulp (cucc_dev.h) */
extern "C" __device__ float __cucc_expf(float), __cucc_logf(float), __cucc_log2f(float), __cucc_log10f(float);
/* acos */
static __device__ __forceinline__ float acosf(float x) { return __builtin_acosf(x); }
static __device__ __forceinline__ double acos(double x) { return __builtin_acos(x); }
static __device__ __forceinline__ float acos(float x) { return __builtin_acosf(x); }
/* acosh */
static __device__ __forceinline__ float acoshf(float x) { return __builtin_acoshf(x); }
static __device__ __forceinline__ double acosh(double x) { return __builtin_acosh(x); }
static __device__ __forceinline__ float acosh(float x) { return __builtin_acoshf(x); }
/* asin */
static __device__ __forceinline__ float asinf(float x) { return __builtin_asinf(x); }
static __device__ __forceinline__ double asin(double x) { return __builtin_asin(x); }
static __device__ __forceinline__ float asin(float x) { return __builtin_asinf(x); }
/* asinh */
static __device__ __forceinline__ float asinhf(float x) { return __builtin_asinhf(x); }
static __device__ __forceinline__ double asinh(double x) { return __builtin_asinh(x); }
static __device__ __forceinline__ float asinh(float x) { return __builtin_asinhf(x); }
/* atan */
static __device__ __forceinline__ float atanf(float x) { return __builtin_atanf(x); }
static __device__ __forceinline__ double atan(double x) { return __builtin_atan(x); }
static __device__ __forceinline__ float atan(float x) { return __builtin_atanf(x); }
/* atanh */
static __device__ __forceinline__ float atanhf(float x) { return __builtin_atanhf(x); }
static __device__ __forceinline__ double atanh(double x) { return __builtin_atanh(x); }
static __device__ __forceinline__ float atanh(float x) { return __builtin_atanhf(x); }
/* cbrt */
static __device__ __forceinline__ float cbrtf(float x) { return __builtin_cbrtf(x); }
static __device__ __forceinline__ double cbrt(double x) { return __builtin_cbrt(x); }
static __device__ __forceinline__ float cbrt(float x) { return __builtin_cbrtf(x); }
/* ceil */
static __device__ __forceinline__ float ceilf(float x) { return __builtin_ceilf(x); }
static __device__ __forceinline__ double ceil(double x) { return __builtin_ceil(x); }
static __device__ __forceinline__ float ceil(float x) { return __builtin_ceilf(x); }
/* cos */
static __device__ __forceinline__ float cosf(float x) { return __cucc_vcosf(x); }
static __device__ __forceinline__ double cos(double x) { return __builtin_cos(x); }
static __device__ __forceinline__ float cos(float x) { return __cucc_vcosf(x); }
/* cosh */
static __device__ __forceinline__ float coshf(float x) { return __builtin_coshf(x); }
static __device__ __forceinline__ double cosh(double x) { return __builtin_cosh(x); }
static __device__ __forceinline__ float cosh(float x) { return __builtin_coshf(x); }
/* erf */
static __device__ __forceinline__ float erff(float x) { return __builtin_erff(x); }
static __device__ __forceinline__ double erf(double x) { return __builtin_erf(x); }
static __device__ __forceinline__ float erf(float x) { return __builtin_erff(x); }
/* erfc */
static __device__ __forceinline__ float erfcf(float x) { return __builtin_erfcf(x); }
static __device__ __forceinline__ double erfc(double x) { return __builtin_erfc(x); }
static __device__ __forceinline__ float erfc(float x) { return __builtin_erfcf(x); }
/* exp2 */
static __device__ __forceinline__ float exp2f(float x) { return __cucc_vexp2f(x); }
static __device__ __forceinline__ double exp2(double x) { return __builtin_exp2(x); }
static __device__ __forceinline__ float exp2(float x) { return __cucc_vexp2f(x); }
/* exp */
static __device__ __forceinline__ float expf(float x) { return __cucc_expf(x); }
static __device__ __forceinline__ double exp(double x) { return __builtin_exp(x); }
static __device__ __forceinline__ float exp(float x) { return __cucc_expf(x); }
/* expm1 */
static __device__ __forceinline__ float expm1f(float x) { return __builtin_expm1f(x); }
static __device__ __forceinline__ double expm1(double x) { return __builtin_expm1(x); }
static __device__ __forceinline__ float expm1(float x) { return __builtin_expm1f(x); }
/* fabs */
static __device__ __forceinline__ float fabsf(float x) { return __builtin_fabsf(x); }
static __device__ __forceinline__ double fabs(double x) { return __builtin_fabs(x); }
static __device__ __forceinline__ float fabs(float x) { return __builtin_fabsf(x); }
/* floor */
static __device__ __forceinline__ float floorf(float x) { return __builtin_floorf(x); }
static __device__ __forceinline__ double floor(double x) { return __builtin_floor(x); }
static __device__ __forceinline__ float floor(float x) { return __builtin_floorf(x); }
/* lgamma */
static __device__ __forceinline__ float lgammaf(float x) { return __builtin_lgammaf(x); }
static __device__ __forceinline__ double lgamma(double x) { return __builtin_lgamma(x); }
static __device__ __forceinline__ float lgamma(float x) { return __builtin_lgammaf(x); }
/* log10 */
static __device__ __forceinline__ float log10f(float x) { return __cucc_log10f(x); }
static __device__ __forceinline__ double log10(double x) { return __builtin_log10(x); }
static __device__ __forceinline__ float log10(float x) { return __cucc_log10f(x); }
/* log1p */
static __device__ __forceinline__ float log1pf(float x) { return __builtin_log1pf(x); }
static __device__ __forceinline__ double log1p(double x) { return __builtin_log1p(x); }
static __device__ __forceinline__ float log1p(float x) { return __builtin_log1pf(x); }
/* log2 */
static __device__ __forceinline__ float log2f(float x) { return __cucc_log2f(x); }
static __device__ __forceinline__ double log2(double x) { return __builtin_log2(x); }
static __device__ __forceinline__ float log2(float x) { return __cucc_log2f(x); }
/* logb */
static __device__ __forceinline__ float logbf(float x) { return __builtin_logbf(x); }
static __device__ __forceinline__ double logb(double x) { return __builtin_logb(x); }
static __device__ __forceinline__ float logb(float x) { return __builtin_logbf(x); }
/* log */
static __device__ __forceinline__ float logf(float x) { return __cucc_logf(x); }
static __device__ __forceinline__ double log(double x) { return __builtin_log(x); }
static __device__ __forceinline__ float log(float x) { return __cucc_logf(x); }
/* nearbyint */
static __device__ __forceinline__ float nearbyintf(float x) { return __builtin_nearbyintf(x); }
static __device__ __forceinline__ double nearbyint(double x) { return __builtin_nearbyint(x); }
static __device__ __forceinline__ float nearbyint(float x) { return __builtin_nearbyintf(x); }
/* rint */
static __device__ __forceinline__ float rintf(float x) { return __builtin_rintf(x); }
static __device__ __forceinline__ double rint(double x) { return __builtin_rint(x); }
static __device__ __forceinline__ float rint(float x) { return __builtin_rintf(x); }
/* round */
static __device__ __forceinline__ float roundf(float x) { return __builtin_roundf(x); }
static __device__ __forceinline__ double round(double x) { return __builtin_round(x); }
static __device__ __forceinline__ float round(float x) { return __builtin_roundf(x); }
/* sin */
static __device__ __forceinline__ float sinf(float x) { return __cucc_vsinf(x); }
static __device__ __forceinline__ double sin(double x) { return __builtin_sin(x); }
static __device__ __forceinline__ float sin(float x) { return __cucc_vsinf(x); }
/* sinh */
static __device__ __forceinline__ float sinhf(float x) { return __builtin_sinhf(x); }
static __device__ __forceinline__ double sinh(double x) { return __builtin_sinh(x); }
static __device__ __forceinline__ float sinh(float x) { return __builtin_sinhf(x); }
/* sqrt */
static __device__ __forceinline__ float sqrtf(float x) { return __builtin_sqrtf(x); }
static __device__ __forceinline__ double sqrt(double x) { return __builtin_sqrt(x); }
static __device__ __forceinline__ float sqrt(float x) { return __builtin_sqrtf(x); }
/* tan */
static __device__ __forceinline__ float tanf(float x) { return __builtin_tanf(x); }
static __device__ __forceinline__ double tan(double x) { return __builtin_tan(x); }
static __device__ __forceinline__ float tan(float x) { return __builtin_tanf(x); }
/* tanh */
/* (glibc's tanhf errs by 2.1 ulp near 0.24, CUDA's bound is 2: in double) */
static __device__ __forceinline__ float tanhf(float x) { return (float)__builtin_tanh((double)x); }
static __device__ __forceinline__ double tanh(double x) { return __builtin_tanh(x); }
static __device__ __forceinline__ float tanh(float x) { return (float)__builtin_tanh((double)x); }
/* tgamma */
static __device__ __forceinline__ float tgammaf(float x) { return __builtin_tgammaf(x); }
static __device__ __forceinline__ double tgamma(double x) { return __builtin_tgamma(x); }
static __device__ __forceinline__ float tgamma(float x) { return __builtin_tgammaf(x); }
/* trunc */
static __device__ __forceinline__ float truncf(float x) { return __builtin_truncf(x); }
static __device__ __forceinline__ double trunc(double x) { return __builtin_trunc(x); }
static __device__ __forceinline__ float trunc(float x) { return __builtin_truncf(x); }
/* exp10 */
static __device__ __forceinline__ float exp10f(float x) { return __builtin_exp10f(x); }
static __device__ __forceinline__ double exp10(double x) { return __builtin_exp10(x); }
static __device__ __forceinline__ float exp10(float x) { return __builtin_exp10f(x); }
static __device__ __forceinline__ float atan2f(float x, float y) { return __builtin_atan2f(x, y); }
static __device__ __forceinline__ double atan2(double x, double y) { return __builtin_atan2(x, y); }
static __device__ __forceinline__ float atan2(float x, float y) { return __builtin_atan2f(x, y); }
static __device__ __forceinline__ float copysignf(float x, float y) { return __builtin_copysignf(x, y); }
static __device__ __forceinline__ double copysign(double x, double y) { return __builtin_copysign(x, y); }
static __device__ __forceinline__ float copysign(float x, float y) { return __builtin_copysignf(x, y); }
static __device__ __forceinline__ float fdimf(float x, float y) { return __builtin_fdimf(x, y); }
static __device__ __forceinline__ double fdim(double x, double y) { return __builtin_fdim(x, y); }
static __device__ __forceinline__ float fdim(float x, float y) { return __builtin_fdimf(x, y); }
static __device__ __forceinline__ float fmaxf(float x, float y) { return __builtin_fmaxf(x, y); }
static __device__ __forceinline__ double fmax(double x, double y) { return __builtin_fmax(x, y); }
static __device__ __forceinline__ float fmax(float x, float y) { return __builtin_fmaxf(x, y); }
static __device__ __forceinline__ float fminf(float x, float y) { return __builtin_fminf(x, y); }
static __device__ __forceinline__ double fmin(double x, double y) { return __builtin_fmin(x, y); }
static __device__ __forceinline__ float fmin(float x, float y) { return __builtin_fminf(x, y); }
static __device__ __forceinline__ float fmodf(float x, float y) { return __builtin_fmodf(x, y); }
static __device__ __forceinline__ double fmod(double x, double y) { return __builtin_fmod(x, y); }
static __device__ __forceinline__ float fmod(float x, float y) { return __builtin_fmodf(x, y); }
static __device__ __forceinline__ float hypotf(float x, float y) { return __builtin_hypotf(x, y); }
static __device__ __forceinline__ double hypot(double x, double y) { return __builtin_hypot(x, y); }
static __device__ __forceinline__ float hypot(float x, float y) { return __builtin_hypotf(x, y); }
static __device__ __forceinline__ float nextafterf(float x, float y) { return __builtin_nextafterf(x, y); }
static __device__ __forceinline__ double nextafter(double x, double y) { return __builtin_nextafter(x, y); }
static __device__ __forceinline__ float nextafter(float x, float y) { return __builtin_nextafterf(x, y); }
static __device__ __forceinline__ float powf(float x, float y) { return __builtin_powf(x, y); }
static __device__ __forceinline__ double pow(double x, double y) { return __builtin_pow(x, y); }
static __device__ __forceinline__ float pow(float x, float y) { return __builtin_powf(x, y); }
static __device__ __forceinline__ float remainderf(float x, float y) { return __builtin_remainderf(x, y); }
static __device__ __forceinline__ double remainder(double x, double y) { return __builtin_remainder(x, y); }
static __device__ __forceinline__ float remainder(float x, float y) { return __builtin_remainderf(x, y); }
static __device__ __forceinline__ float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
static __device__ __forceinline__ float frexpf(float x, int *e) { return __builtin_frexpf(x, e); }
static __device__ __forceinline__ float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
static __device__ __forceinline__ float scalbnf(float x, int e) { return __builtin_scalbnf(x, e); }
static __device__ __forceinline__ float modff(float x, float *i) { return __builtin_modff(x, i); }
static __device__ __forceinline__ int ilogbf(float x) { return __builtin_ilogbf(x); }
static __device__ __forceinline__ long lrintf(float x) { return __builtin_lrintf(x); }
static __device__ __forceinline__ long lroundf(float x) { return __builtin_lroundf(x); }
static __device__ __forceinline__ long long llrintf(float x) { return __builtin_llrintf(x); }
static __device__ __forceinline__ long long llroundf(float x) { return __builtin_llroundf(x); }
static __device__ __forceinline__ void sincosf(float x, float *s, float *c) { *s = __cucc_vsinf(x); *c = __cucc_vcosf(x); }
static __device__ __forceinline__ double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
static __device__ __forceinline__ double frexp(double x, int *e) { return __builtin_frexp(x, e); }
static __device__ __forceinline__ double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
static __device__ __forceinline__ double scalbn(double x, int e) { return __builtin_scalbn(x, e); }
static __device__ __forceinline__ double modf(double x, double *i) { return __builtin_modf(x, i); }
static __device__ __forceinline__ int ilogb(double x) { return __builtin_ilogb(x); }
static __device__ __forceinline__ long lrint(double x) { return __builtin_lrint(x); }
static __device__ __forceinline__ long lround(double x) { return __builtin_lround(x); }
static __device__ __forceinline__ long long llrint(double x) { return __builtin_llrint(x); }
static __device__ __forceinline__ long long llround(double x) { return __builtin_llround(x); }
static __device__ __forceinline__ void sincos(double x, double *s, double *c) { *s = __builtin_sin(x); *c = __builtin_cos(x); }
static __device__ __forceinline__ float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
static __device__ __forceinline__ float scalblnf(float x, long e) { return __builtin_scalblnf(x, e); }
static __device__ __forceinline__ double scalbln(double x, long e) { return __builtin_scalbln(x, e); }
static __device__ __forceinline__ float remquof(float x, float y, int *q) { return __builtin_remquof(x, y, q); }
static __device__ __forceinline__ double remquo(double x, double y, int *q) { return __builtin_remquo(x, y, q); }
/* the float overloads of the functions above that take or give an
 * integer or a pointer (CUDA has them: std::frexp(float, int *) in device
 * code needs them, libstdc++'s are host functions) */
static __device__ __forceinline__ float frexp(float x, int *e) { return __builtin_frexpf(x, e); }
static __device__ __forceinline__ float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
static __device__ __forceinline__ float scalbn(float x, int e) { return __builtin_scalbnf(x, e); }
static __device__ __forceinline__ float scalbln(float x, long e) { return __builtin_scalblnf(x, e); }
static __device__ __forceinline__ float modf(float x, float *i) { return __builtin_modff(x, i); }
static __device__ __forceinline__ float remquo(float x, float y, int *q) { return __builtin_remquof(x, y, q); }
static __device__ __forceinline__ int ilogb(float x) { return __builtin_ilogbf(x); }
static __device__ __forceinline__ long lrint(float x) { return __builtin_lrintf(x); }
static __device__ __forceinline__ long lround(float x) { return __builtin_lroundf(x); }
static __device__ __forceinline__ long long llrint(float x) { return __builtin_llrintf(x); }
static __device__ __forceinline__ long long llround(float x) { return __builtin_llroundf(x); }
static __device__ __forceinline__ void sincos(float x, float *s, float *c) { sincosf(x, s, c); }
/* a quiet NaN, whatever the tag says */
static __device__ __forceinline__ float nanf(const char *tag) { (void)tag; return __builtin_nanf(""); }
static __device__ __forceinline__ double nan(const char *tag) { (void)tag; return __builtin_nan(""); }
/* Bessel functions of the first and second kinds: the C library's (through
 * cucc_dev.h: clang has no builtins for them), the float ones in double */
extern "C" __device__ double __cucc_j0(double), __cucc_j1(double), __cucc_jn(int, double);
extern "C" __device__ double __cucc_y0(double), __cucc_y1(double), __cucc_yn(int, double);
static __device__ __forceinline__ double j0(double x) { return __cucc_j0(x); }
static __device__ __forceinline__ double j1(double x) { return __cucc_j1(x); }
static __device__ __forceinline__ double jn(int n, double x) { return __cucc_jn(n, x); }
static __device__ __forceinline__ double y0(double x) { return __cucc_y0(x); }
static __device__ __forceinline__ double y1(double x) { return __cucc_y1(x); }
static __device__ __forceinline__ double yn(int n, double x) { return __cucc_yn(n, x); }
static __device__ __forceinline__ float j0f(float x) { return (float)__cucc_j0(x); }
static __device__ __forceinline__ float j1f(float x) { return (float)__cucc_j1(x); }
static __device__ __forceinline__ float jnf(int n, float x) { return (float)__cucc_jn(n, x); }
static __device__ __forceinline__ float y0f(float x) { return (float)__cucc_y0(x); }
static __device__ __forceinline__ float y1f(float x) { return (float)__cucc_y1(x); }
static __device__ __forceinline__ float ynf(int n, float x) { return (float)__cucc_yn(n, x); }
static __device__ __forceinline__ int abs(int x) { return x < 0 ? -x : x; }
static __device__ __forceinline__ long labs(long x) { return x < 0 ? -x : x; }
static __device__ __forceinline__ long long llabs(long long x) { return x < 0 ? -x : x; }
static __device__ __forceinline__ long abs(long x) { return x < 0 ? -x : x; }
static __device__ __forceinline__ long long abs(long long x) { return x < 0 ? -x : x; }
static __device__ __forceinline__ float abs(float x) { return __builtin_fabsf(x); }
static __device__ __forceinline__ double abs(double x) { return __builtin_fabs(x); }
/* std:: names. libstdc++'s <cmath> and <cstdlib> put the C functions into
 * std with `using ::sqrt;`, which takes only the overloads declared before
 * it: the host's, since <cmath> comes in through <math.h> before this
 * header. In device code std::sqrt(double) then found only libstdc++'s
 * constexpr float and long double overloads (both a conversion away:
 * ambiguous) and std::abs(int) only host ones. Declaring the names again in
 * std adds our __device__ overloads there, as clang's own CUDA headers do;
 * they differ from the host ones in their target, so both stay, and each
 * side's call picks its own. Only the names libstdc++ has in std. */
namespace std {
  using ::abs; using ::labs; using ::llabs; using ::acos; using ::acosh; using ::acoshf; using ::asin;
  using ::asinh; using ::asinhf; using ::atan; using ::atan2; using ::atanh; using ::atanhf; using ::cbrt;
  using ::cbrtf; using ::ceil; using ::copysign; using ::copysignf; using ::cos; using ::cosh; using ::erf;
  using ::erfc; using ::erfcf; using ::erff; using ::exp; using ::exp2; using ::exp2f; using ::expm1;
  using ::expm1f; using ::fabs; using ::fdim; using ::fdimf; using ::floor; using ::fma; using ::fmaf;
  using ::fmax; using ::fmaxf; using ::fmin; using ::fminf; using ::fmod; using ::frexp; using ::hypot;
  using ::hypotf; using ::ilogb; using ::ilogbf; using ::ldexp; using ::lgamma; using ::lgammaf;
  using ::llrint; using ::llrintf; using ::llround; using ::llroundf; using ::log; using ::log10;
  using ::log1p; using ::log1pf; using ::log2; using ::log2f; using ::logb; using ::logbf; using ::lrint;
  using ::lrintf; using ::lround; using ::lroundf; using ::modf; using ::nan; using ::nanf;
  using ::nearbyint; using ::nearbyintf; using ::nextafter; using ::nextafterf; using ::pow;
  using ::remainder; using ::remainderf; using ::remquo; using ::remquof; using ::rint; using ::rintf;
  using ::round; using ::roundf; using ::scalbln; using ::scalblnf; using ::scalbn; using ::scalbnf;
  using ::sin; using ::sinh; using ::sqrt; using ::tan; using ::tanh; using ::tgamma; using ::tgammaf;
  using ::trunc; using ::truncf;
}
/* assert() in device code (the frontend turns the whole assert into a
 * check that reports the thread and fails the launch with cudaErrorAssert) */
extern "C" __device__ void __assert_fail(const char *expr, const char *file, unsigned int line, const char *fn);
extern "C" __device__ int printf(const char *format, ...);
extern "C" __device__ void *memcpy(void *dst, const void *src, size_t n);
extern "C" __device__ void *memset(void *dst, int c, size_t n);
#endif
#endif

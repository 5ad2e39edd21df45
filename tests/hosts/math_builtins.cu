// Every function of our cuda_math.h in device code, against the host's
// libm. A __device__ function's calls become the C compiler's __builtin_*
// math, which each host compiler (gcc, clang, a cross gcc) must know or
// have a fallback for (cucc_rt.h: exp10 before clang 18); a __host__
// __device__ function's calls stay libm's, GNU ones (exp10f, sincosf)
// included, which C declares only with _GNU_SOURCE (driver/spawn.c).
#include <cmath>
#include <cstdio>

#define F1(X) X(acosf) X(asinf) X(asinhf) X(atanf) X(atanhf) X(cbrtf) X(ceilf) X(cosf) \
  X(coshf) X(erff) X(erfcf) X(exp2f) X(expf) X(expm1f) X(fabsf) X(floorf) X(lgammaf) X(log10f) \
  X(log1pf) X(log2f) X(logbf) X(logf) X(nearbyintf) X(rintf) X(roundf) X(sinf) X(sinhf) \
  X(sqrtf) X(tanf) X(tanhf) X(tgammaf) X(truncf) X(exp10f)
#define D1(X) X(acos) X(asin) X(asinh) X(atan) X(atanh) X(cbrt) X(ceil) X(cos) X(cosh) X(erf) \
  X(erfc) X(exp2) X(exp) X(expm1) X(fabs) X(floor) X(lgamma) X(log10) X(log1p) X(log2) \
  X(logb) X(log) X(nearbyint) X(rint) X(round) X(sin) X(sinh) X(sqrt) X(tan) X(tanh) \
  X(tgamma) X(trunc) X(exp10)
#define F2(X) X(atan2f) X(copysignf) X(fdimf) X(fmaxf) X(fminf) X(fmodf) X(hypotf) \
  X(nextafterf) X(powf) X(remainderf)
#define D2(X) X(atan2) X(copysign) X(fdim) X(fmax) X(fmin) X(fmod) X(hypot) X(nextafter) X(pow) \
  X(remainder)
#define COUNT(f) +1
enum { NF = 0 F1(COUNT) F2(COUNT) + 10, ND = 0 D1(COUNT) D2(COUNT) + 9 };

// at x in (0, 1) every function is defined (acosh gets 1 + x)
#define CALLF1(f) r[i++] = f(x);
#define CALLD1(f) d[j++] = f(y);
#define CALLF2(f) r[i++] = f(x, 0.75f);
#define CALLD2(f) d[j++] = f(y, 0.75);
#define ALL(name) void name(float x, float *r, double *d) {             \
  int i = 0, j = 0, e;                                                  \
  float fi, s, c;                                                       \
  double di, sd, cd, y = x;                                             \
  F1(CALLF1) F2(CALLF2) D1(CALLD1) D2(CALLD2)                           \
  r[i++] = acoshf(1 + x);                                               \
  r[i++] = fmaf(x, 3.0f, 0.5f);                                         \
  r[i++] = frexpf(x * 100, &e) + e;                                     \
  r[i++] = ldexpf(x, 5) + scalbnf(x, -3);                               \
  r[i++] = modff(x * 7, &fi) + fi;                                      \
  r[i++] = ilogbf(x * 1000);                                            \
  r[i++] = lrintf(x * 10) + lroundf(x * 10);                            \
  r[i++] = llrintf(x * 100) + llroundf(x * 100);                        \
  sincosf(x, &s, &c);                                                   \
  r[i++] = s + 2 * c;                                                   \
  r[i++] = (float)abs(-3) + (float)labs(-4L) + (float)llabs(-5LL);      \
  d[j++] = acosh(1 + y);                                                \
  d[j++] = fma(y, 3.0, 0.5);                                            \
  d[j++] = frexp(y * 100, &e) + e;                                      \
  d[j++] = ldexp(y, 5) + scalbn(y, -3);                                 \
  d[j++] = modf(y * 7, &di) + di;                                       \
  d[j++] = ilogb(y * 1000);                                             \
  d[j++] = lrint(y * 10) + lround(y * 10) + llrint(y * 100) + llround(y * 100); \
  sincos(y, &sd, &cd);                                                  \
  d[j++] = sd + 2 * cd;                                                 \
  d[j++] = fabs(y - 2);                                                 \
}

__device__ ALL(dev_all)
__host__ __device__ ALL(hd_all)
static ALL(host_all)

// thread t: dev_all at x_t into slot t, hd_all into slot n + t
__global__ void kernel(int n, float *r, double *d) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = (t + 0.5f) / n;
  dev_all(x, r + t * NF, d + t * ND);
  hd_all(x, r + (n + t) * NF, d + (n + t) * ND);
}

static bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol * (1 + std::fabs(b)); }

int main() {
  const int n = 40;
  float *r, hr[NF];
  double *d, hd[ND];
  cudaMallocManaged(&r, 2 * n * NF * sizeof *r);
  cudaMallocManaged(&d, 2 * n * ND * sizeof *d);
  kernel<<<2, 32>>>(n, r, d);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: launch\n");
    return 1;
  }
  int bad = 0;
  for (int s = 0; s < 2 * n; s++) {
    const char *fn = s < n ? "__device__" : "__host__ __device__";
    host_all(((s % n) + 0.5f) / n, hr, hd);
    for (int k = 0; k < NF; k++)
      if (!near(r[s * NF + k], hr[k], 1e-5) && bad++ < 10)
        printf("%s float result %d at point %d: device %.9g host %.9g\n", fn, k, s % n, r[s * NF + k], hr[k]);
    for (int k = 0; k < ND; k++)
      if (!near(d[s * ND + k], hd[k], 1e-13) && bad++ < 10)
        printf("%s double result %d at point %d: device %.17g host %.17g\n", fn, k, s % n, d[s * ND + k], hd[k]);
  }
  printf("%d float and %d double results at %d points: %s\n", NF, ND, n, bad ? "FAIL" : "PASS");
  return bad != 0;
}

// math_api.cu: the CUDA math API that the C library lacks or names
// differently, in device code: fast intrinsics (__sinf, __cosf, __expf,
// __saturatef, __fmaf_rn, __sincosf), rintf, erff, erfcf, sincosf,
// sincospif, sinpi, rcbrtf, the inverse error functions and the normal
// distribution (erfinv, erfcinv, normcdf, normcdfinv; also usable in host
// code, as in CUDA), integer umin/umax/llmin/ullmax and rounding
// conversions. Checked against the host's libm, and the inverses by the
// property erf(erfinv(y)) == y.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define NV 16

__global__ void mk(const float *in, float *o, double *od, long long *oi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i], *f = o + i * NV;
  float s, c, sp, cp;
  sincosf(x, &s, &c);
  sincospif(x * 0.1f, &sp, &cp);
  f[0] = __sinf(x);
  f[1] = __cosf(x);
  f[2] = __saturatef(x * 0.1f);
  f[3] = __fmaf_rn(x, 0.5f, 1.25f);
  f[4] = rintf(x * 0.7f);
  f[5] = erff(x * 0.1f);
  f[6] = erfcf(x * 0.1f);
  f[7] = s + 2 * c;
  f[8] = sp + 2 * cp;
  f[9] = rcbrtf(fabsf(x) + 1);
  f[10] = erfinvf(x / 11.0f);
  f[11] = normcdff(x * 0.3f);
  f[12] = normcdfinvf((x + 10.5f) / 21.0f);
  f[13] = __expf(x * 0.1f);
  float s2, c2;
  __sincosf(x, &s2, &c2);
  f[14] = s2 * c2;
  f[15] = __int2float_rn(__float2int_rn(x * 1.5f));
  double d = x / 11.0;
  od[i * 4] = erfinv(d);
  od[i * 4 + 1] = erfcinv(1 + d);
  od[i * 4 + 2] = normcdf(x * 0.3);
  od[i * 4 + 3] = sinpi(d) + cospi(d);
  int k = (int)(x * 3);
  oi[i * 4] = umin((unsigned)k, 5u) + umax((unsigned)(k + 20), 17u);
  oi[i * 4 + 1] = llmin(k, -3LL) + llmax(k, 4LL);
  oi[i * 4 + 2] = (long long)ullmax((unsigned long long)(k + 30), 25ull);
  oi[i * 4 + 3] = __float2ll_rn(x * 2.5f);
}

static int bad;
static void near(double got, double want, double tol, int i, const char *what) {
  if (!(fabs(got - want) <= tol * (1 + fabs(want)))) {
    if (bad++ < 10) printf("x[%d]: %s = %.9g, expected %.9g\n", i, what, got, want);
  }
}

int main() {
  const int n = 200;
  float *in, *o;
  double *od;
  long long *oi;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&o, n * NV * sizeof(float));
  cudaMallocManaged(&od, n * 4 * sizeof(double));
  cudaMallocManaged(&oi, n * 4 * sizeof(long long));
  for (int i = 0; i < n; i++) in[i] = -10.0f + i * 0.1f;   // [-10, 10)
  mk<<<(n + 63) / 64, 64>>>(in, o, od, oi, n);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: launch\n"); return 1; }
  for (int i = 0; i < n; i++) {
    float x = in[i], *f = o + i * NV;
    double pi = 3.14159265358979323846;
    near(f[0], sin(x), 1e-5, i, "__sinf");
    near(f[1], cos(x), 1e-5, i, "__cosf");
    near(f[2], fmin(fmax(x * 0.1f, 0.0), 1.0), 0, i, "__saturatef");
    near(f[3], fmaf(x, 0.5f, 1.25f), 0, i, "__fmaf_rn");
    near(f[4], rintf(x * 0.7f), 0, i, "rintf");
    near(f[5], erf(x * 0.1f), 1e-6, i, "erff");
    near(f[6], erfc(x * 0.1f), 1e-6, i, "erfcf");
    near(f[7], sin(x) + 2 * cos(x), 1e-6, i, "sincosf");
    near(f[8], sin(pi * (x * 0.1f)) + 2 * cos(pi * (x * 0.1f)), 1e-5, i, "sincospif");
    near(f[9], 1 / cbrt(fabs(x) + 1), 1e-6, i, "rcbrtf");
    near(erf(f[10]), x / 11.0f, 1e-6, i, "erf(erfinvf)");
    near(f[11], 0.5 * erfc(-x * 0.3f / sqrt(2.0)), 1e-6, i, "normcdff");
    near(0.5 * erfc(-f[12] / sqrt(2.0)), (x + 10.5f) / 21.0f, 1e-5, i, "normcdf(normcdfinvf)");
    near(f[13], exp(x * 0.1f), 1e-5, i, "__expf");
    near(f[14], sin(x) * cos(x), 1e-5, i, "__sincosf");
    near(f[15], rintf(x * 1.5f), 0, i, "__float2int_rn");
    double d = x / 11.0, *r = od + i * 4;
    near(erf(r[0]), d, 1e-14, i, "erf(erfinv)");
    near(erfc(r[1]), 1 + d, 1e-14, i, "erfc(erfcinv)");
    near(r[2], 0.5 * erfc(-x * 0.3 / sqrt(2.0)), 1e-15, i, "normcdf");
    near(r[3], sin(pi * d) + cos(pi * d), 1e-14, i, "sinpi + cospi");
    int k = (int)(x * 3);
    long long *q = oi + i * 4;
    unsigned uk = (unsigned)k, uk20 = (unsigned)(k + 20);
    near((double)q[0], (double)((uk < 5u ? uk : 5u) + (uk20 > 17u ? uk20 : 17u)), 0, i, "umin + umax");
    near((double)q[1], (double)((k < -3 ? k : -3) + (k > 4 ? k : 4)), 0, i, "llmin + llmax");
    near((double)q[2], (double)(k + 30 > 25 ? k + 30 : 25), 0, i, "ullmax");
    near((double)q[3], (double)llrintf(x * 2.5f), 0, i, "__float2ll_rn");
  }
  // host code may call them too, as in CUDA
  near(normcdfinv(0.975), 1.959963984540054, 1e-12, -1, "host normcdfinv");
  near(rsqrtf(4.0f), 0.5, 0, -1, "host rsqrtf");
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

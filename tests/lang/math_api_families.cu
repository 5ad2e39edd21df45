// math_api_families.cu: a sample of each family of the CUDA Math API that
// the completeness list (math_api_list.txt) brought in, against a CPU
// reference: SIMD and sm_90 DPX intrinsics lane by lane, integer
// intrinsics (__hadd, __fns, funnel shifts, dot products, byte swaps),
// casts, the "ieee" fma in each direction (against the host's fmaf under
// fesetround), norms, erfcx and the Bessel function I0 (against long
// double), with random operands and ties.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define NW 32
__global__ void mk2(const unsigned *a, const unsigned *b, unsigned *o, double *od, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  unsigned x = a[t], y = b[t], *r = o + t * NW;
  int sx = (int)x, sy = (int)y;
  bool p0, p1;
  r[0] = __vadd2(x, y);
  r[1] = __vaddss2(x, y);
  r[2] = __vsubus4(x, y);
  r[3] = __vavgu4(x, y);
  r[4] = __vabsdiffs4(x, y);
  r[5] = __vcmpgtu2(x, y);
  r[6] = __vsetlts4(x, y);
  r[7] = __vsads2(x, y);
  r[8] = __vnegss2(x);
  r[9] = __vmaxs4(x, y);
  r[10] = __vimax3_s16x2(x, y, x ^ y);
  r[11] = __viaddmin_u32(x, y, x ^ y);
  r[12] = __vibmax_s16x2(x, y, &p1, &p0);
  r[13] = p1 * 2 + p0;
  r[14] = (unsigned)__hadd(sx, sy);
  r[15] = __urhadd(x, y);
  r[16] = __fns(x, y & 31, (int)(y >> 5 & 7) - 3);
  r[17] = __funnelshift_lc(x, y, y & 63);
  r[18] = __funnelshift_rc(x, y, y & 63);
  r[19] = (unsigned)__dp4a(sx, sy, 7);
  r[20] = __dp2a_hi(x, y, 9u);
  r[21] = __nv_bswap32(x);
  double d = __hiloint2double((int)(x & 0x3fffffff), (int)y);
  r[22] = (unsigned)__double2hiint(d) ^ (unsigned)__double2loint(d);
  float fa = (float)sx / 65536.0f, fb = (float)sy / 1048576.0f, fc = (float)(x ^ y) / 4096.0f;
  r[23] = __float_as_uint(__fmaf_ieee_rd(fa, fb, fc));
  r[24] = __float_as_uint(__fmaf_ieee_ru(fa, fb, fc));
  r[25] = __float_as_uint(__fmaf_ieee_rz(fa, fb, fc));
  r[26] = __viaddmax_s16x2_relu(x, y, x ^ y);
  r[27] = __vimin_s32_relu(sx, sy);
  double *q = od + t * 6, v[3] = {fa, fb, fc};
  q[0] = norm3df(fa, fb, fc) + rnorm(3, v);
  q[1] = erfcx(fb * 2e-3);
  q[2] = cyl_bessel_i0(fc * 1e-4);
  q[3] = rhypot(fa, fb);
  q[4] = erfcx(25.0 + t * 0.1);        // the asymptotic branches
  q[5] = cyl_bessel_i0(30.0 + t * 0.05);
}

/* references, on the host */
static int lane(unsigned x, int w, int k, int s) {
  unsigned v = (x >> (w * k)) & ((1u << w) - 1);
  return s && (v >> (w - 1)) ? (int)v - (1 << w) : (int)v;
}
static unsigned pack(int *l, int w) {
  unsigned r = 0;
  for (int k = 0; k < 32 / w; k++) r |= ((unsigned)l[k] & ((1u << w) - 1)) << (w * k);
  return r;
}
static int sat(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static unsigned ref_fns(unsigned m, unsigned base, int off) {
  if (off == 0) return (m >> base & 1) ? base : ~0u;
  int seen = 0;
  if (off > 0) {
    for (int p = (int)base; p < 32; p++)
      if ((m >> p & 1) && ++seen == off) return (unsigned)p;
  } else {
    for (int p = (int)base; p >= 0; p--)
      if ((m >> p & 1) && ++seen == -off) return (unsigned)p;
  }
  return ~0u;
}
template <class F> static unsigned lanes(int w, F f) {
  int l[4];
  for (int k = 0; k < 32 / w; k++) l[k] = f(k);
  return pack(l, w);
}
static long double ref_i0(long double z) {
  long double s = 0, term = 1;
  for (int k = 1; k < 800; k++) { s += term; term *= z * z / 4 / ((long double)k * k); }
  return s;
}
// (volatile: the compiler may not move the fma across fesetround)
static float fma_in(int mode, float a, float b, float c) {
  volatile float va = a, vb = b, vc = c;
  fesetround(mode);
  volatile float r = fmaf(va, vb, vc);
  fesetround(FE_TONEAREST);
  return r;
}
static unsigned fbits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

static int bad;
static void near(double got, double want, double tol, int i, const char *what) {
  if (!(fabs(got - want) <= tol * (1 + fabs(want)))) {
    if (bad++ < 10) printf("x[%d]: %s = %.17g, expected %.17g\n", i, what, got, want);
  }
}

int main() {
  const int m = 300;
  unsigned *a, *b, *o2;
  double *od2;
  cudaMallocManaged(&a, m * sizeof(unsigned));
  cudaMallocManaged(&b, m * sizeof(unsigned));
  cudaMallocManaged(&o2, m * NW * sizeof(unsigned));
  cudaMallocManaged(&od2, m * 6 * sizeof(double));
  unsigned seed = 12345;
  for (int i = 0; i < m; i++) {
    seed = seed * 1664525u + 1013904223u;
    a[i] = seed;
    seed = seed * 1664525u + 1013904223u;
    b[i] = i < 8 ? a[i] ^ (0x80008000u >> i) : i < 16 ? a[i] : seed;   // ties and near-ties too
  }
  mk2<<<(m + 63) / 64, 64>>>(a, b, o2, od2, m);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: launch 2\n"); return 1; }
  for (int i = 0; i < m; i++) {
    unsigned x = a[i], y = b[i], *r = o2 + i * NW;
    int k;
#define LANES(W, EXPR) lanes(W, [&](int k) { return (int)(EXPR); })
#define SL(v, W) lane(v, W, k, 1)
#define UL(v, W) lane(v, W, k, 0)
    near(r[0], LANES(16, UL(x, 16) + UL(y, 16)), 0, i, "__vadd2");
    near(r[1], LANES(16, sat(SL(x, 16) + SL(y, 16), -32768, 32767)), 0, i, "__vaddss2");
    near(r[2], LANES(8, sat(UL(x, 8) - UL(y, 8), 0, 255)), 0, i, "__vsubus4");
    near(r[3], LANES(8, (UL(x, 8) + UL(y, 8) + 1) / 2), 0, i, "__vavgu4");
    near(r[4], LANES(8, abs(SL(x, 8) - SL(y, 8))), 0, i, "__vabsdiffs4");
    near(r[5], LANES(16, UL(x, 16) > UL(y, 16) ? 0xffff : 0), 0, i, "__vcmpgtu2");
    near(r[6], LANES(8, SL(x, 8) < SL(y, 8)), 0, i, "__vsetlts4");
    near(r[7], abs(lane(x, 16, 0, 1) - lane(y, 16, 0, 1)) + abs(lane(x, 16, 1, 1) - lane(y, 16, 1, 1)), 0, i, "__vsads2");
    near(r[8], LANES(16, sat(-SL(x, 16), -32768, 32767)), 0, i, "__vnegss2");
    near(r[9], LANES(8, std::max(SL(x, 8), SL(y, 8))), 0, i, "__vmaxs4");
    near(r[10], LANES(16, std::max(std::max(SL(x, 16), SL(y, 16)), SL(x ^ y, 16))), 0, i, "__vimax3_s16x2");
    near(r[11], std::min(x + y, x ^ y), 0, i, "__viaddmin_u32");
    near(r[12], LANES(16, std::max(SL(x, 16), SL(y, 16))), 0, i, "__vibmax_s16x2");
    near(r[13], (lane(x, 16, 1, 1) >= lane(y, 16, 1, 1)) * 2 + (lane(x, 16, 0, 1) >= lane(y, 16, 0, 1)), 0, i, "__vibmax_s16x2 preds");
    near((int)r[14], (double)(int)floor(((double)(int)x + (int)y) / 2), 0, i, "__hadd");
    near(r[15], (unsigned)(((unsigned long long)x + y + 1) >> 1), 0, i, "__urhadd");
    near(r[16], ref_fns(x, y & 31, (int)(y >> 5 & 7) - 3), 0, i, "__fns");
    unsigned long long hl = (unsigned long long)y << 32 | x;
    unsigned sh = y & 63, c = sh > 32 ? 32 : sh;
    near(r[17], (unsigned)((c == 32 ? hl << 31 << 1 : hl << c) >> 32), 0, i, "__funnelshift_lc");
    near(r[18], (unsigned)(c == 32 ? y : hl >> c), 0, i, "__funnelshift_rc");
    int dp = 7;
    for (k = 0; k < 4; k++) dp += lane(x, 8, k, 1) * lane(y, 8, k, 1);
    near((int)r[19], dp, 0, i, "__dp4a");
    unsigned du = 9 + lane(x, 16, 0, 0) * lane(y, 8, 2, 0) + lane(x, 16, 1, 0) * lane(y, 8, 3, 0);
    near(r[20], du, 0, i, "__dp2a_hi");
    near(r[21], __builtin_bswap32(x), 0, i, "__nv_bswap32");
    near(r[22], (x & 0x3fffffff) ^ y, 0, i, "__hiloint2double");
    float fa = (float)(int)x / 65536.0f, fb = (float)(int)y / 1048576.0f, fc = (float)(x ^ y) / 4096.0f;
    near(r[23], fbits(fma_in(FE_DOWNWARD, fa, fb, fc)), 0, i, "__fmaf_ieee_rd");
    near(r[24], fbits(fma_in(FE_UPWARD, fa, fb, fc)), 0, i, "__fmaf_ieee_ru");
    near(r[25], fbits(fma_in(FE_TOWARDZERO, fa, fb, fc)), 0, i, "__fmaf_ieee_rz");
    near(r[26], LANES(16, std::max(std::max((int)(short)(SL(x, 16) + SL(y, 16)), SL(x ^ y, 16)), 0)), 0, i, "__viaddmax_s16x2_relu");
    near((int)r[27], std::max(std::min((int)x, (int)y), 0), 0, i, "__vimin_s32_relu");
    long double n3 = sqrtl((long double)fa * fa + (long double)fb * fb + (long double)fc * fc);
    double *q = od2 + i * 6;
    near(q[0], (double)((float)n3 + 1 / n3), 2e-7, i, "norm3df + rnorm");
    long double e = fb * 2e-3;
    near(q[1], (double)(expl(e * e) * erfcl(e)), 1e-14, i, "erfcx");
    near(q[2], (double)ref_i0(fc * 1e-4), 1e-14, i, "cyl_bessel_i0");
    near(q[3], 1 / sqrt((double)fa * fa + (double)fb * fb), 1e-15, i, "rhypot");
    long double e2 = 25.0 + i * 0.1;
    near(q[4], (double)(expl(e2 * e2) * erfcl(e2)), 1e-14, i, "erfcx (large)");
    near(q[5], (double)ref_i0(30.0 + i * 0.05), 1e-14, i, "cyl_bessel_i0 (large)");
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

// rounding.cu: arithmetic and conversions in a chosen rounding (__fadd_rd,
// __fmul_ru, __fdiv_rz, __fsqrt_rd, __dadd_ru, __fmaf_rd, __float2int_rd,
// __double2float_ru, __ll2float_rz...), each checked against the exact
// result worked out on the CPU; CUDA's mixed float/double min and max; and
// a class whose __device__-only member functions call device intrinsics
// (the host compiler never sees those bodies, as with nvcc).
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>

// an interval type as interval arithmetic libraries write it
struct Interval {
  float lo, hi;
  __device__ Interval add(const Interval &o) const { return {__fadd_rd(lo, o.lo), __fadd_ru(hi, o.hi)}; }
  __device__ Interval mul(float k) const { return {__fmul_rd(lo, k), __fmul_ru(hi, k)}; }
  __device__ float width() const { return __fsub_ru(hi, lo); }
  __host__ __device__ bool ok() const { return lo <= hi; }
};

__global__ void ops(const float *a, const float *b, float *o, const double *da, const double *db, double *od, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float *r = o + i * 28;
  r[0] = __fadd_rn(x, y), r[1] = __fadd_rz(x, y), r[2] = __fadd_ru(x, y), r[3] = __fadd_rd(x, y);
  r[4] = __fsub_rn(x, y), r[5] = __fsub_rz(x, y), r[6] = __fsub_ru(x, y), r[7] = __fsub_rd(x, y);
  r[8] = __fmul_rn(x, y), r[9] = __fmul_rz(x, y), r[10] = __fmul_ru(x, y), r[11] = __fmul_rd(x, y);
  r[12] = __fdiv_rn(x, y), r[13] = __fdiv_rz(x, y), r[14] = __fdiv_ru(x, y), r[15] = __fdiv_rd(x, y);
  float ax = fabsf(x);
  r[16] = __fsqrt_rn(ax), r[17] = __fsqrt_rz(ax), r[18] = __fsqrt_ru(ax), r[19] = __fsqrt_rd(ax);
  r[20] = __fmaf_rn(x, y, 0.1f), r[21] = __fmaf_rz(x, y, 0.1f), r[22] = __fmaf_ru(x, y, 0.1f),
  r[23] = __fmaf_rd(x, y, 0.1f);
  r[24] = __frcp_rn(y), r[25] = __frcp_rz(y), r[26] = __frcp_ru(y), r[27] = __frcp_rd(y);
  double dx = da[i], dy = db[i];
  double *q = od + i * 12;
  q[0] = __dadd_rn(dx, dy), q[1] = __dadd_rz(dx, dy), q[2] = __dadd_ru(dx, dy), q[3] = __dadd_rd(dx, dy);
  q[4] = __dmul_rn(dx, dy), q[5] = __dmul_rz(dx, dy), q[6] = __dmul_ru(dx, dy), q[7] = __dmul_rd(dx, dy);
  q[8] = __ddiv_rn(dx, dy), q[9] = __ddiv_rz(dx, dy), q[10] = __ddiv_ru(dx, dy), q[11] = __ddiv_rd(dx, dy);
}

__global__ void cvt(const float *a, int *oi, long long *ol, float *of, double *od, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  oi[i * 8 + 0] = __float2int_rn(x), oi[i * 8 + 1] = __float2int_rz(x), oi[i * 8 + 2] = __float2int_ru(x),
  oi[i * 8 + 3] = __float2int_rd(x);
  oi[i * 8 + 4] = (int)__float2uint_rd(x), oi[i * 8 + 5] = __double2int_ru((double)x * 3);
  ol[i * 2] = __float2ll_rz(x * 1e10f), ol[i * 2 + 1] = __double2ll_rd((double)x * 1e12);
  long long big = (1ll << 40) + 3 + i;   // not a float: the rounding shows
  of[i * 4] = __ll2float_rz(big), of[i * 4 + 1] = __ll2float_ru(big), of[i * 4 + 2] = __double2float_rd(x / 3.0),
  of[i * 4 + 3] = __double2float_ru(x / 3.0);
  od[i * 2] = max(x, 1.0 / 3), od[i * 2 + 1] = min(1.0 / 3, x);   // mixed: double, as in CUDA
}

__global__ void intervals(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Interval v = {a[i], a[i]};
  Interval w = v.add({0.1f, 0.1f}).mul(3.0f);
  o[i * 3] = w.lo, o[i * 3 + 1] = w.hi, o[i * 3 + 2] = w.width();
  if (!w.ok()) o[i * 3] = NAN;
}

static int bad = 0;
// the float nearest x in direction m (0 nearest, 1 toward zero, 2 up, 3 down),
// from exact value d (a double holding the exact result) and, when the
// double itself is not exact, the sign of what it left out
static float dirf(double d, int m, int tail = 0) {
  float r = (float)d;
  double e = d - (double)r;
  int s = e > 0 ? 1 : e < 0 ? -1 : tail;
  if (m == 2 && s > 0) r = nextafterf(r, INFINITY);
  if (m == 3 && s < 0) r = nextafterf(r, -INFINITY);
  if (m == 1 && ((r > 0 && s < 0) || (r < 0 && s > 0))) r = nextafterf(r, 0);
  return r;
}
static double dird(long double d, int m) {
  double r = (double)d;
  long double e = d - (long double)r;
  if (m == 2 && e > 0) r = nextafter(r, INFINITY);
  if (m == 3 && e < 0) r = nextafter(r, -INFINITY);
  if (m == 1 && ((r > 0 && e < 0) || (r < 0 && e > 0))) r = nextafter(r, 0);
  return r;
}
static void same(float got, float want, const char *what, int i) {
  if (!(got == want) && !(std::isnan(got) && std::isnan(want))) {
    if (bad++ < 10) printf("%s [%d]: %a, want %a\n", what, i, got, want);
  }
}

int main() {
  const int N = 2000;
  float *a, *b, *o, *of;
  double *da, *db, *od, *odc;
  int *oi;
  long long *ol;
  cudaMallocManaged(&a, N * sizeof(float));
  cudaMallocManaged(&b, N * sizeof(float));
  cudaMallocManaged(&o, N * 28 * sizeof(float));
  cudaMallocManaged(&da, N * sizeof(double));
  cudaMallocManaged(&db, N * sizeof(double));
  cudaMallocManaged(&od, N * 12 * sizeof(double));
  cudaMallocManaged(&oi, N * 8 * sizeof(int));
  cudaMallocManaged(&ol, N * 2 * sizeof(long long));
  cudaMallocManaged(&of, N * 4 * sizeof(float));
  cudaMallocManaged(&odc, N * 2 * sizeof(double));
  unsigned s = 12345;
  for (int i = 0; i < N; i++) {
    s = s * 1664525u + 1013904223u;
    float x = ((int)(s >> 8) - (1 << 23)) / 1048576.0f;   // [-8, 8), 20 fraction bits
    s = s * 1664525u + 1013904223u;
    float y = ((int)(s >> 8) - (1 << 23)) / 3000.0f + 0.001f;
    a[i] = i % 97 == 0 ? (float)(i / 97) - 7.5f : x;   // some exact halves for the conversions
    b[i] = y;
    da[i] = (double)x * 1.000000123456789 + 1e-9 * i;
    db[i] = (double)y / 7.0 + 1.0;
  }
  ops<<<(N + 127) / 128, 128>>>(a, b, o, da, db, od, N);
  cvt<<<(N + 127) / 128, 128>>>(a, oi, ol, of, odc, N);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++) {
    float x = a[i], y = b[i];
    const float *r = o + i * 28;
    for (int m = 0; m < 4; m++) {
      same(r[m], dirf((double)x + y, m), "__fadd", i);
      same(r[4 + m], dirf((double)x - y, m), "__fsub", i);
      same(r[8 + m], dirf((double)x * y, m), "__fmul", i);
      double q = (double)x / y;   // the direction of the exact quotient: x - q*y
      float qn = (float)q;
      double rem = (double)x - (double)qn * y;
      same(r[12 + m], dirf((double)qn, m, y > 0 ? (rem > 0) - (rem < 0) : (rem < 0) - (rem > 0)), "__fdiv", i);
      double sq = sqrt((double)fabsf(x));
      float sn = (float)sq;
      double sr = (double)fabsf(x) - (double)sn * sn;
      same(r[16 + m], dirf((double)sn, m, (sr > 0) - (sr < 0)), "__fsqrt", i);
      same(r[20 + m], dirf((double)x * y + 0.1f, m), "__fmaf", i);
      double rc = 1.0 / y;
      float rn = (float)rc;
      double rr = 1.0 - (double)rn * y;
      same(r[24 + m], dirf((double)rn, m, y > 0 ? (rr > 0) - (rr < 0) : (rr < 0) - (rr > 0)), "__frcp", i);
      const double *q2 = od + i * 12;
      long double lx = da[i], ly = db[i];
      if (q2[m] != dird(lx + ly, m) && bad++ < 10) printf("__dadd %d [%d]\n", m, i);
      // a product of doubles needs 106 bits: its direction from the exact fma residual
      double pn = da[i] * db[i], pe = fma(da[i], db[i], -pn);
      if (q2[4 + m] != dird((long double)pn + (pe > 0 ? 0x1p-60L * fabs(pn) : pe < 0 ? -0x1p-60L * fabs(pn) : 0), m) &&
          bad++ < 10)
        printf("__dmul %d [%d]\n", m, i);
      double dq = da[i] / db[i];   // the direction: x - q*y, exact through fma
      double drem = fma(-dq, db[i], da[i]);
      double want = dq;
      int sg = db[i] > 0 ? (drem > 0) - (drem < 0) : (drem < 0) - (drem > 0);
      if (m == 2 && sg > 0) want = nextafter(dq, INFINITY);
      if (m == 3 && sg < 0) want = nextafter(dq, -INFINITY);
      if (m == 1 && ((dq > 0 && sg < 0) || (dq < 0 && sg > 0))) want = nextafter(dq, 0);
      if (q2[8 + m] != want && bad++ < 10) printf("__ddiv %d [%d]\n", m, i);
    }
    const int *ci = oi + i * 8;
    int want[4] = {(int)rintf(x), (int)truncf(x), (int)ceilf(x), (int)floorf(x)};
    for (int m = 0; m < 4; m++)
      if (ci[m] != want[m] && bad++ < 10) printf("__float2int %d [%d]: %d for %g\n", m, i, ci[m], x);
    if (ci[4] != (x < 0 ? 0 : (int)floorf(x)) && bad++ < 10) printf("__float2uint_rd [%d]\n", i);
    if (ci[5] != (int)ceil((double)x * 3) && bad++ < 10) printf("__double2int_ru [%d]\n", i);
    if (ol[i * 2] != (long long)truncf(x * 1e10f) || ol[i * 2 + 1] != (long long)floor((double)x * 1e12)) {
      if (bad++ < 10) printf("__float2ll/__double2ll [%d]\n", i);
    }
    long long big = (1ll << 40) + 3 + i;
    same(of[i * 4], dirf((double)big, 1), "__ll2float_rz", i);
    same(of[i * 4 + 1], dirf((double)big, 2), "__ll2float_ru", i);
    same(of[i * 4 + 2], dirf(x / 3.0, 3), "__double2float_rd", i);
    same(of[i * 4 + 3], dirf(x / 3.0, 2), "__double2float_ru", i);
    if (odc[i * 2] != fmax((double)x, 1.0 / 3) || odc[i * 2 + 1] != fmin(1.0 / 3, (double)x)) {
      if (bad++ < 10) printf("mixed max/min [%d]\n", i);
    }
  }
  // saturation and NaN, as the GPU's conversions
  float edge[4] = {3e9f, -3e9f, NAN, 1e30f};
  for (int i = 0; i < 4; i++) a[i] = edge[i];
  cvt<<<1, 4>>>(a, oi, ol, of, odc, 4);
  cudaDeviceSynchronize();
  if (oi[0] != INT_MAX || oi[8] != INT_MIN || oi[16] != 0 || oi[8 + 4] != 0 || oi[24 + 4] != (int)UINT_MAX) {
    bad++;
    printf("saturation: %d %d %d %d %d\n", oi[0], oi[8], oi[16], oi[12], oi[28]);
  }
  // an interval encloses the exact (x + 0.1) * 3
  intervals<<<(N + 127) / 128, 128>>>(b, o, N);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++) {
    double exact = ((double)b[i] + 0.1f) * 3;
    if (!(o[i * 3] <= exact && exact <= o[i * 3 + 1] && o[i * 3 + 2] >= 0) && bad++ < 10)
      printf("interval [%d]: [%a, %a] for %a\n", i, o[i * 3], o[i * 3 + 1], exact);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

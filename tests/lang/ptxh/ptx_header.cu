// ptx_header.cu: a program whose own header holds device functions in
// inline PTX with constraints only a GPU has (ptx_ops.cuh); built with the
// host compiler the suite runs (gcc, or clang in the clang suite, which
// reads such a header through an overlay without the PTX). Checked against
// the CPU.
#include <cfenv>
#include <cstdio>
#include "ptx_ops.cuh"

__global__ void rounded(const float *x, float *f, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = x[n - 1 - i];
  f[3 * i] = add_rm(a, b);
  f[3 * i + 1] = sub_rp(a, b);
  f[3 * i + 2] = div_rz(a, b);
  d[i] = fma_rp(a, b, 1e-3 * a);
}

// the host's arithmetic in a rounding mode: out of line, so that the
// compiler computes each after fesetround
__attribute__((noinline)) static void host_rounded(int mode, float a, float b, float *sum, float *dif, float *quo,
                                                   double *fma_) {
  volatile float va = a, vb = b;
  volatile double da = a, db = b, dc = 1e-3 * a;   // (the kernel's, rounded to nearest)
  fesetround(mode);
  *sum = va + vb;
  *dif = va - vb;
  *quo = va / vb;
  *fma_ = __builtin_fma(da, db, dc);
  fesetround(FE_TONEAREST);
}

__global__ void ops(const unsigned short *h, const unsigned long long *l, float *f, double *d,
                    unsigned long long *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  f[i] = fmul_rz(1.0f + i, 1.0f / 3.0f);
  d[i] = add_f64(i, 0.25);
  o[i] = ld_u16(h + i) + ld_cg(l + i) + ld_cs(l + n - 1 - i) + twice(i);
}

int main() {
  const int n = 300;
  unsigned short *h;
  unsigned long long *l, *o;
  float *f;
  double *d;
  cudaMallocManaged(&h, n * sizeof *h);
  cudaMallocManaged(&l, n * sizeof *l);
  cudaMallocManaged(&o, n * sizeof *o);
  cudaMallocManaged(&f, n * sizeof *f);
  cudaMallocManaged(&d, n * sizeof *d);
  for (int i = 0; i < n; i++) h[i] = (unsigned short)(60000 + i), l[i] = 1ull << (i % 63);
  ops<<<(n + 127) / 128, 128>>>(h, l, f, d, o, n);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: launch\n"), 1;
  int bad = 0;
  for (int i = 0; i < n; i++) {
    // round toward zero: the float below the exact product or equal to it
    double exact = (1.0 + i) * (double)(1.0f / 3.0f);
    bool rz = f[i] <= exact && (double)nextafterf(f[i], 1e30f) > exact;
    unsigned long long want = (unsigned long long)(60000 + i) + (1ull << (i % 63)) + (1ull << ((n - 1 - i) % 63)) + 2 * i;
    if (!rz || d[i] != i + 0.25 || o[i] != want) {
      if (bad++ < 5) printf("FAILED at %d: %.9g %g %llu (want %llu)\n", i, f[i], d[i], o[i], want);
    }
  }
  if (twice(21) != 42) bad++;

  float *x, *r;
  double *rd;
  cudaMallocManaged(&x, n * sizeof *x);
  cudaMallocManaged(&r, 3 * n * sizeof *r);
  cudaMallocManaged(&rd, n * sizeof *rd);
  for (int i = 0; i < n; i++) x[i] = (i % 2 ? -1.0f : 1.0f) * (0.1f + i * 0.37f) / (1 + i % 7);
  rounded<<<(n + 127) / 128, 128>>>(x, r, rd, n);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: launch\n"), 1;
  for (int i = 0; i < n; i++) {
    float a = x[i], b = x[n - 1 - i], s, t, q, u, v, w;
    double e, g;
    host_rounded(FE_DOWNWARD, a, b, &s, &u, &v, &g);
    host_rounded(FE_UPWARD, a, b, &u, &t, &w, &e);
    host_rounded(FE_TOWARDZERO, a, b, &v, &w, &q, &g);
    if (r[3 * i] != s || r[3 * i + 1] != t || r[3 * i + 2] != q || rd[i] != e) {
      if (bad++ < 5)
        printf("FAILED rounding at %d: %.9g %.9g %.9g %.17g (want %.9g %.9g %.9g %.17g)\n", i, r[3 * i], r[3 * i + 1],
               r[3 * i + 2], rd[i], s, t, q, e);
    }
  }
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}

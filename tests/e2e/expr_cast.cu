// expr_cast.cu: float and double arithmetic and comparisons, and casts:
// int<->float/double (truncation toward zero), signed<->unsigned, narrowing
// to char/short (wrap-around), widening with sign/zero extension, to bool,
// float<->double rounding. Thread-dependent values, checked against the host.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define KD 14  // double results per thread
#define KI 22  // integer results per thread

__global__ void casts(const int *a, double *od, long long *oi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  float f = x * 0.37f - 3.5f, g = (float)(i % 17) + 0.25f;
  double d = x * 0.125 + 0.5, e = (double)(i % 13) - 6.5;
  double *rd = od + (long long)i * KD;
  long long *ri = oi + (long long)i * KI;
  rd[0] = f + g;  rd[1] = f - g;  rd[2] = f * g;  rd[3] = f / g;  rd[4] = -f;
  rd[5] = d + e;  rd[6] = d - e;  rd[7] = d * e;  rd[8] = d / e;
  rd[9] = (float)d;                 // double -> float rounding
  rd[10] = f * d;                   // float promoted to double
  rd[11] = (float)x;                // exact for small ints
  rd[12] = (float)(x * 4099 + 16777217); // int -> float rounds
  rd[13] = x / 2 + x / 2.0f;        // int division, then float division
  ri[0] = (int)f;                   // truncation toward zero
  ri[1] = (int)(-f * 3.0f);
  ri[2] = (long long)(d * 1.0e6);
  ri[3] = (unsigned)(g * 1000.0f);
  ri[4] = (unsigned)x;              // negative -> wraps
  ri[5] = (int)(unsigned)(x * 1000003);
  ri[6] = (char)(x * 7);            // narrowing wraps
  ri[7] = (unsigned char)(x * 7);
  ri[8] = (short)(x * 977);
  ri[9] = (unsigned short)(x * 977);
  ri[10] = (signed char)x + (unsigned char)x;
  ri[11] = (long long)((unsigned long long)(long long)x << 33);
  ri[12] = (unsigned long long)(unsigned)x;
  ri[13] = (long long)(int)(unsigned)x;
  ri[14] = (bool)f + (bool)(x & 4) + (bool)0.0;
  ri[15] = f < g;  ri[16] = f >= g;  ri[17] = d == e;  ri[18] = d != e;
  ri[19] = (f > 0.0f) && (d < 1.0);
  ri[20] = (int)floorf(f) + (int)ceil(d);
  ri[21] = (short)(unsigned short)65535 + (unsigned short)(short)-1;
}

static void casts_host(const int *a, double *rd, long long *ri, int i) {
  int x = a[i];
  float f = x * 0.37f - 3.5f, g = (float)(i % 17) + 0.25f;
  double d = x * 0.125 + 0.5, e = (double)(i % 13) - 6.5;
  rd[0] = f + g;  rd[1] = f - g;  rd[2] = f * g;  rd[3] = f / g;  rd[4] = -f;
  rd[5] = d + e;  rd[6] = d - e;  rd[7] = d * e;  rd[8] = d / e;
  rd[9] = (float)d;
  rd[10] = f * d;
  rd[11] = (float)x;
  rd[12] = (float)(x * 4099 + 16777217);
  rd[13] = x / 2 + x / 2.0f;
  ri[0] = (int)f;
  ri[1] = (int)(-f * 3.0f);
  ri[2] = (long long)(d * 1.0e6);
  ri[3] = (unsigned)(g * 1000.0f);
  ri[4] = (unsigned)x;
  ri[5] = (int)(unsigned)(x * 1000003);
  ri[6] = (char)(x * 7);
  ri[7] = (unsigned char)(x * 7);
  ri[8] = (short)(x * 977);
  ri[9] = (unsigned short)(x * 977);
  ri[10] = (signed char)x + (unsigned char)x;
  ri[11] = (long long)((unsigned long long)(long long)x << 33);
  ri[12] = (unsigned long long)(unsigned)x;
  ri[13] = (long long)(int)(unsigned)x;
  ri[14] = (bool)f + (bool)(x & 4) + (bool)0.0;
  ri[15] = f < g;  ri[16] = f >= g;  ri[17] = d == e;  ri[18] = d != e;
  ri[19] = (f > 0.0f) && (d < 1.0);
  ri[20] = (int)floorf(f) + (int)ceil(d);
  ri[21] = (short)(unsigned short)65535 + (unsigned short)(short)-1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2049;
  int *ha = (int *)malloc(n * sizeof(int));
  double *hd = (double *)malloc((size_t)n * KD * sizeof(double)), wd[KD];
  long long *hi = (long long *)malloc((size_t)n * KI * sizeof(long long)), wi[KI];
  for (int i = 0; i < n; i++) ha[i] = (i * 7919) % 4001 - 2000;
  int *da; double *dd; long long *di;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&dd, (size_t)n * KD * sizeof(double)));
  CHECK(cudaMalloc(&di, (size_t)n * KI * sizeof(long long)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(int), cudaMemcpyHostToDevice));
  casts<<<(n + 63) / 64, 64>>>(da, dd, di, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hd, dd, (size_t)n * KD * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hi, di, (size_t)n * KI * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    casts_host(ha, wd, wi, i);
    for (int k = 0; k < KD; k++) {
      double g = hd[(long long)i * KD + k], w = wd[k];
      // single operations are exact in IEEE; allow for contraction into fma
      if (fabs(g - w) > 1e-6 * fmax(1.0, fabs(w)) && bad++ < 10)
        printf("thread %d (x=%d) rd[%d] = %.17g, want %.17g\n", i, ha[i], k, g, w);
    }
    for (int k = 0; k < KI; k++)
      if (hi[(long long)i * KI + k] != wi[k] && bad++ < 10)
        printf("thread %d (x=%d) ri[%d] = %lld, want %lld\n", i, ha[i], k,
               hi[(long long)i * KI + k], wi[k]);
  }
  cudaFree(da); cudaFree(dd); cudaFree(di);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

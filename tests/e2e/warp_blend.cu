// warp_blend.cu: `t % m == 0` selects every m-th thread. Stores to shared
// memory under it run as a strided lane loop, or for m = 2, 4, 8 as a blend
// over the run's span (the other lanes store back what they read). This
// checks both against a CPU reference: int and float, `=` and `+=`, several
// m and offsets, 1-D blocks (block-wide version) and 2-D whole rows. Reads
// never touch an element another active thread writes (no races).
#include <cstdio>
#include <cstdlib>

#define MAXT 128

__global__ void every(const int *a, int *o, int m, int k) {
  __shared__ int s[MAXT + 8];
  __shared__ float f[MAXT + 8];
  int t = threadIdx.x + blockDim.x * threadIdx.y, nt = blockDim.x * blockDim.y;
  int i = blockIdx.x * nt + t;
  s[t] = a[i];
  f[t] = s[t] * 0.5f;
  if (t < 8) { s[nt + t] = -t; f[nt + t] = t; }
  __syncthreads();
  if (t % m == 0) {
    s[t] += s[t + k];
    f[t] = f[t + k] * 2 + t;
  }
  __syncthreads();
  o[i] = s[t] * 3 + (int)f[t];
}

int main() {
  const int shapes[][2] = {{64, 1}, {128, 1}, {96, 1}, {32, 2}, {32, 4}};
  const int mk[][2] = {{2, 1}, {2, 3}, {4, 1}, {4, 3}, {8, 1}, {8, 3}, {3, 1}, {16, 3}, {64, 1}, {5, 2}};
  int bad = 0, runs = 0;
  for (const auto &sh : shapes)
    for (const auto &p : mk) {
      int nt = sh[0] * sh[1], nb = 3, n = nb * nt, m = p[0], k = p[1];
      int *a = (int *)malloc(n * sizeof(int)), *o = (int *)malloc(n * sizeof(int));
      for (int i = 0; i < n; i++) a[i] = (i * 37) % 101 - 50;
      int *da, *dO;
      cudaMalloc(&da, n * sizeof(int));
      cudaMalloc(&dO, n * sizeof(int));
      cudaMemcpy(da, a, n * sizeof(int), cudaMemcpyHostToDevice);
      every<<<nb, dim3(sh[0], sh[1])>>>(da, dO, m, k);
      cudaMemcpy(o, dO, n * sizeof(int), cudaMemcpyDeviceToHost);
      for (int b = 0; b < nb; b++) {
        int s[MAXT + 8], s2[MAXT + 8];
        float f[MAXT + 8], f2[MAXT + 8];
        for (int t = 0; t < nt; t++) { s[t] = a[b * nt + t]; f[t] = s[t] * 0.5f; }
        for (int t = 0; t < 8; t++) { s[nt + t] = -t; f[nt + t] = (float)t; }
        for (int t = 0; t < nt + 8; t++) { s2[t] = s[t]; f2[t] = f[t]; }
        for (int t = 0; t < nt; t++)
          if (t % m == 0) { s2[t] = s[t] + s[t + k]; f2[t] = f[t + k] * 2 + t; }
        for (int t = 0; t < nt; t++) {
          int want = s2[t] * 3 + (int)f2[t], got = o[b * nt + t];
          if (got != want && bad++ < 5) printf("block (%d,%d) m=%d k=%d: o[%d] = %d, want %d\n", sh[0], sh[1], m, k, b * nt + t, got, want);
        }
      }
      runs++;
      cudaFree(da); cudaFree(dO);
      free(a); free(o);
    }
  printf("%d shapes x (m,k) checked, %d mismatches\n%s\n", runs, bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}

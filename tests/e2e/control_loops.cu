// control_loops.cu: for, while and do-while with per-thread trip counts
// (including zero), break and continue in nested loops (inner and outer),
// a loop with a uniform condition whose body diverges, a loop whose
// condition has a side effect, and a grid-stride loop over more elements
// than threads. Block sizes with partial warps.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 7

__global__ void loops(const int *a, int *o, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  if (i >= n) return;
  int x = a[i], *r = o + i * K;
  int s = 0;
  for (int k = 0; k < t % 9; k++) s += k * x;      // per-thread trip count, some 0
  r[0] = s;
  int w = x < 0 ? -x : x, steps = 0;
  while (w > 1) { w = (w & 1) ? 3 * w + 1 : w / 2; steps++; }   // Collatz
  r[1] = steps;
  int d = 0, c = i % 5;
  do { d += c; } while (--c > 0);                   // body runs at least once
  r[2] = d;
  int hits = 0;                                     // nested break / continue
  for (int p = 0; p < 8; p++) {
    if (p == t % 7) continue;
    if (p > 5 && (x & 1)) break;
    for (int q = 0; q < 8; q++) {
      if (q > p) break;
      if ((p + q + t) % 3 == 0) continue;
      hits += p * 8 + q;
    }
  }
  r[3] = hits;
  int u = 0;                                        // uniform condition, divergent body
  for (int k = 0; k < m; k++) {
    if ((k + t) % 3 == 0) u += k;
    else if (x > k) u -= 1;
    else continue;
    u *= 2;
    u %= 100003;
  }
  r[4] = u;
  int z = 0, cnt = 0;                               // condition with a side effect
  while (z++ < t % 6 + 2) cnt += z;
  r[5] = cnt * 100 + z;
  int found = -1;                                   // break out of two loops with a flag
  for (int p = 0; p < 10 && found < 0; p++)
    for (int q = 0; q < 10; q++)
      if (p * q == (x < 0 ? -x : x) % 50) { found = p * 10 + q; break; }
  r[6] = found;
}

__global__ void gridstride(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] * 2.0f + (float)(i % 3);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1111;
  int *ha = (int *)malloc(n * sizeof(int)), *ho = (int *)malloc(n * K * sizeof(int));
  for (int i = 0; i < n; i++) ha[i] = (i * 7919) % 2001 - 1000;
  int *da, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * K * sizeof(int)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(int), cudaMemcpyHostToDevice));
  int bad = 0;
  const int sizes[] = {33, 100, 256};
  for (int si = 0; si < 3; si++) {
    int bs = sizes[si], m = 5 + si * 7;
    loops<<<(n + bs - 1) / bs, bs>>>(da, dout, n, m);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ho, dout, n * K * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int t = i % bs, x = ha[i], w[K];
      w[0] = 0; for (int k = 0; k < t % 9; k++) w[0] += k * x;
      int v = x < 0 ? -x : x; w[1] = 0;
      while (v > 1) { v = (v & 1) ? 3 * v + 1 : v / 2; w[1]++; }
      w[2] = (i % 5) * (i % 5 + 1) / 2;
      w[3] = 0;
      for (int p = 0; p < 8; p++) {
        if (p == t % 7) continue;
        if (p > 5 && (x & 1)) break;
        for (int q = 0; q <= p; q++) if ((p + q + t) % 3 != 0) w[3] += p * 8 + q;
      }
      w[4] = 0;
      for (int k = 0; k < m; k++) {
        if ((k + t) % 3 == 0) w[4] += k; else if (x > k) w[4] -= 1; else continue;
        w[4] = (w[4] * 2) % 100003;
      }
      int lim = t % 6 + 2;
      w[5] = lim * (lim + 1) / 2 * 100 + lim + 1;
      w[6] = -1;
      for (int p = 0; p < 10 && w[6] < 0; p++)
        for (int q = 0; q < 10 && w[6] < 0; q++)
          if (p * q == (x < 0 ? -x : x) % 50) w[6] = p * 10 + q;
      for (int k = 0; k < K; k++)
        if (ho[i * K + k] != w[k] && bad++ < 10)
          printf("bs=%d thread %d (x=%d) r[%d] = %d, want %d\n", bs, i, x, k, ho[i * K + k], w[k]);
    }
  }
  // grid-stride: fewer threads than elements, n not a multiple of anything
  int big = 3 * n + 17;
  float *hin = (float *)malloc(big * sizeof(float)), *hout = (float *)malloc(big * sizeof(float));
  for (int i = 0; i < big; i++) hin[i] = (float)(i % 101) - 50.0f;
  float *din, *dres;
  CHECK(cudaMalloc(&din, big * sizeof(float)));
  CHECK(cudaMalloc(&dres, big * sizeof(float)));
  CHECK(cudaMemcpy(din, hin, big * sizeof(float), cudaMemcpyHostToDevice));
  gridstride<<<5, 77>>>(din, dres, big);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dres, big * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < big; i++)
    if (hout[i] != hin[i] * 2.0f + (float)(i % 3) && bad++ < 10)
      printf("gridstride out[%d] = %g, want %g\n", i, hout[i], hin[i] * 2.0f + (float)(i % 3));
  cudaFree(da); cudaFree(dout); cudaFree(din); cudaFree(dres);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

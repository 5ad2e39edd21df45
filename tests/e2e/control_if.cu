// control_if.cu: if/else chains and nested ifs, under divergence (conditions
// on the thread index or per-thread data) and uniform (conditions on a kernel
// argument or blockIdx), with assignments in only some branches, empty
// branches and conditions with side effects. Block of 96 + partial blocks.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 6

__global__ void ifs(const int *a, int *o, int n, int u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x, b = blockIdx.x;
  if (i >= n) return;
  int x = a[i], *r = o + i * K;
  // chain on the thread index: diverges inside every warp
  if (t % 4 == 0) r[0] = 10;
  else if (t % 4 == 1) r[0] = 20 + x;
  else if (t % 4 == 2) r[0] = 30 - x;
  else r[0] = 40;
  // chain on a uniform kernel argument
  if (u == 1) r[1] = x * 2;
  else if (u == 2) r[1] = x * 3;
  else r[1] = -x;
  // nested: uniform outside, divergent inside, and the reverse
  int v = 0;
  if (b % 2 == 0) {
    if (x > 0) v = 1;
    else if (x < 0) v = 2;
    else v = 3;
  } else {
    if (t < 16) {
      if (u > 1) v = 4; else v = 5;
    }                                   // no else: v stays 0
  }
  r[2] = v;
  // divergence by warp only (no divergence inside a warp)
  if (t / 32 == 1) r[3] = 100 + t; else r[3] = -t;
  // a branch that modifies the condition's inputs, and an empty branch
  int y = x;
  if (y > 50) { y -= 100; if (y > 50) y = 50; }
  else if (y < -50) { }
  else y *= 2;
  if (y == 50 || (y < 0 && t % 3 == 0)) y += 1000;
  r[4] = y;
  // deep nesting on independent bits of the thread index
  int d = 0;
  if (t & 1) { d += 1; if (t & 2) { d += 2; if (t & 4) { d += 4; if (t & 8) d += 8; else d -= 8; } } }
  else if (t & 16) { d = -d - 16; } else { if (i & 32) d = 32; }
  r[5] = d;
}

static void ifs_host(const int *a, int *o, int n, int u, int i, int t, int b) {
  if (i >= n) return;
  int x = a[i], *r = o + i * K;
  if (t % 4 == 0) r[0] = 10;
  else if (t % 4 == 1) r[0] = 20 + x;
  else if (t % 4 == 2) r[0] = 30 - x;
  else r[0] = 40;
  if (u == 1) r[1] = x * 2;
  else if (u == 2) r[1] = x * 3;
  else r[1] = -x;
  int v = 0;
  if (b % 2 == 0) {
    if (x > 0) v = 1;
    else if (x < 0) v = 2;
    else v = 3;
  } else {
    if (t < 16) {
      if (u > 1) v = 4; else v = 5;
    }
  }
  r[2] = v;
  if (t / 32 == 1) r[3] = 100 + t; else r[3] = -t;
  int y = x;
  if (y > 50) { y -= 100; if (y > 50) y = 50; }
  else if (y < -50) { }
  else y *= 2;
  if (y == 50 || (y < 0 && t % 3 == 0)) y += 1000;
  r[4] = y;
  int d = 0;
  if (t & 1) { d += 1; if (t & 2) { d += 2; if (t & 4) { d += 4; if (t & 8) d += 8; else d -= 8; } } }
  else if (t & 16) { d = -d - 16; } else { if (i & 32) d = 32; }
  r[5] = d;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  const int bs = 96;
  int *ha = (int *)malloc(n * sizeof(int));
  int *ho = (int *)malloc(n * K * sizeof(int)), *wo = (int *)malloc(n * K * sizeof(int));
  for (int i = 0; i < n; i++) ha[i] = (i * 37) % 301 - 150;
  int *da, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * K * sizeof(int)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(int), cudaMemcpyHostToDevice));
  int bad = 0;
  for (int u = 0; u <= 2; u++) {
    CHECK(cudaMemset(dout, 0, n * K * sizeof(int)));
    ifs<<<(n + bs - 1) / bs, bs>>>(da, dout, n, u);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ho, dout, n * K * sizeof(int), cudaMemcpyDeviceToHost));
    for (int k = 0; k < n * K; k++) wo[k] = 0;
    for (int i = 0; i < n; i++) ifs_host(ha, wo, n, u, i, i % bs, i / bs);
    for (int k = 0; k < n * K; k++)
      if (ho[k] != wo[k] && bad++ < 10)
        printf("u=%d thread %d r[%d] = %d, want %d\n", u, k / K, k % K, ho[k], wo[k]);
  }
  cudaFree(da); cudaFree(dout);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

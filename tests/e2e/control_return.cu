// control_return.cu: early return of some threads of a warp; the code after
// it must run only for the others (each thread writes a marker at every
// stage). Also return from inside a loop and a switch, and divergent returns
// inside a __device__ function called in a loop.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 4

// returns from several places, depending on the value
__device__ int classify(int v) {
  if (v < 0) return -1;
  for (int k = 2; k * k <= v; k++)
    if (v % k == 0) return k;       // smallest factor
  if (v < 2) return 0;
  return v;                         // prime
}

__global__ void early(const int *a, int *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  if (i >= n) return;
  int x = a[i], *r = o + i * K;
  r[0] = 1;                         // stage 1: everyone
  if (t % 3 == 0) return;
  r[1] = 2;                         // stage 2: t % 3 != 0
  for (int k = 0; k < 20; k++) {
    if (k == x % 20) {
      if (x & 1) return;            // return from inside a loop
      break;
    }
  }
  r[2] = 3;                         // stage 3: survivors of the loop
  switch (t % 5) {
  case 1: return;                   // return from inside a switch
  case 2: r[3] = -5; return;
  default: break;
  }
  int s = 0;
  for (int k = x - 5; k < x + 5; k++) s += classify(k);
  r[3] = s;                         // stage 4
}

static int classify_h(int v) {
  if (v < 0) return -1;
  for (int k = 2; k * k <= v; k++)
    if (v % k == 0) return k;
  if (v < 2) return 0;
  return v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2023;
  const int bs = 160;
  int *ha = (int *)malloc(n * sizeof(int)), *ho = (int *)malloc(n * K * sizeof(int));
  for (int i = 0; i < n; i++) ha[i] = (i * 7919) % 1009 - 20;
  int *da, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * K * sizeof(int)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, n * K * sizeof(int)));
  early<<<(n + bs - 1) / bs, bs>>>(da, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(ho, dout, n * K * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0, stage_count[K] = {0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    int t = i % bs, x = ha[i], w[K] = {1, 0, 0, 0};
    if (t % 3 != 0) {
      w[1] = 2;
      int m = x % 20;               // the loop stops at k == x % 20 when 0 <= it < 20
      if (!(m >= 0 && (x & 1))) {
        w[2] = 3;
        if (t % 5 == 2) w[3] = -5;
        else if (t % 5 != 1) {
          int s = 0;
          for (int k = x - 5; k < x + 5; k++) s += classify_h(k);
          w[3] = s;
        }
      }
    }
    for (int k = 0; k < K; k++) {
      if (ho[i * K + k] != 0) stage_count[k]++;
      if (ho[i * K + k] != w[k] && bad++ < 10)
        printf("thread %d (x=%d) r[%d] = %d, want %d\n", i, x, k, ho[i * K + k], w[k]);
    }
  }
  printf("threads reaching each stage: %d %d %d %d\n", stage_count[0], stage_count[1],
         stage_count[2], stage_count[3]);
  cudaFree(da); cudaFree(dout);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

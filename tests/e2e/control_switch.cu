// control_switch.cu: switch under divergence (on the thread index) and
// uniform (on a kernel argument): fall-through, default in the middle,
// negative and sparse case values, no matching case and no default, a switch
// nested in a switch inside a loop whose cases break (the switch) and
// continue (the loop), and a loop break from inside a switch via a flag.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 5

__global__ void sw(const int *a, int *o, int n, int u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  if (i >= n) return;
  int x = a[i], *r = o + i * K;
  int v = 0;
  switch (t % 8) {
  case 0: v += 1;                  // falls through
  case 1: v += 10; break;
  default: v += 100;               // default in the middle, falls through
  case 5: v += 1000; break;
  case 6: case 7: v = -v - 7; break;
  }
  r[0] = v;
  switch (x) {                     // sparse and negative values, no default
  case -3: r[1] = 3; break;
  case 0: r[1] = 100; break;
  case 7: case 11: r[1] = x * 2; break;
  case 1000: r[1] = -1; break;
  }
  switch (u) {                     // uniform
  case 0: r[2] = x; break;
  case 1: r[2] = x + t; /* fall through */
  case 2: r[2] = -r[2]; break;
  default: r[2] = 99;
  }
  // nested switch in a loop; break leaves the switch, continue the loop
  int acc = 0;
  for (int k = 0; k < 10 + t % 5; k++) {
    switch ((k + t) % 4) {
    case 0:
      switch (k % 3) {
      case 0: acc += 1; break;
      case 1: continue;            // to the next k
      default: acc += 2;
      }
      acc += 10;
      break;
    case 1: continue;
    case 2: acc *= 2; break;
    default:
      if (x & 1) break;
      acc -= 3;
    }
    acc += 100;
  }
  r[3] = acc;
  // leaving the loop from within a switch
  int j, done = 0;
  for (j = 0; j < 100 && !done; j++) {
    switch (j % 7 == x % 7 ? 1 : 0) {
    case 1: done = 1; break;
    default: break;
    }
  }
  r[4] = j;
}

static void sw_host(const int *a, int *o, int n, int u, int i, int t) {
  if (i >= n) return;
  int x = a[i], *r = o + i * K;
  int v = 0;
  switch (t % 8) {
  case 0: v += 1;
  case 1: v += 10; break;
  default: v += 100;
  case 5: v += 1000; break;
  case 6: case 7: v = -v - 7; break;
  }
  r[0] = v;
  switch (x) {
  case -3: r[1] = 3; break;
  case 0: r[1] = 100; break;
  case 7: case 11: r[1] = x * 2; break;
  case 1000: r[1] = -1; break;
  }
  switch (u) {
  case 0: r[2] = x; break;
  case 1: r[2] = x + t;
  case 2: r[2] = -r[2]; break;
  default: r[2] = 99;
  }
  int acc = 0;
  for (int k = 0; k < 10 + t % 5; k++) {
    switch ((k + t) % 4) {
    case 0:
      switch (k % 3) {
      case 0: acc += 1; break;
      case 1: continue;
      default: acc += 2;
      }
      acc += 10;
      break;
    case 1: continue;
    case 2: acc *= 2; break;
    default:
      if (x & 1) break;
      acc -= 3;
    }
    acc += 100;
  }
  r[3] = acc;
  int j, done = 0;
  for (j = 0; j < 100 && !done; j++) {
    switch (j % 7 == x % 7 ? 1 : 0) {
    case 1: done = 1; break;
    default: break;
    }
  }
  r[4] = j;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 999;
  const int bs = 64;
  int *ha = (int *)malloc(n * sizeof(int));
  int *ho = (int *)malloc(n * K * sizeof(int)), *wo = (int *)malloc(n * K * sizeof(int));
  for (int i = 0; i < n; i++) ha[i] = (i * 13) % 29 - 7;   // hits -3, 0, 7, 11
  int *da, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * K * sizeof(int)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(int), cudaMemcpyHostToDevice));
  int bad = 0;
  for (int u = 0; u <= 3; u++) {
    CHECK(cudaMemset(dout, 0, n * K * sizeof(int)));
    sw<<<(n + bs - 1) / bs, bs>>>(da, dout, n, u);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ho, dout, n * K * sizeof(int), cudaMemcpyDeviceToHost));
    for (int k = 0; k < n * K; k++) wo[k] = 0;
    for (int i = 0; i < n; i++) sw_host(ha, wo, n, u, i, i % bs);
    for (int k = 0; k < n * K; k++)
      if (ho[k] != wo[k] && bad++ < 10)
        printf("u=%d thread %d r[%d] = %d, want %d\n", u, k / K, k % K, ho[k], wo[k]);
  }
  cudaFree(da); cudaFree(dout);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

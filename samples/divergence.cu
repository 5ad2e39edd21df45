// divergence.cu: the divergence examples of the lecture notes.
//  - kv: the f/g/h kernel: bool b = f(x[i]); b picks g or h;
//  - fgh: a three-way if/else on the thread index calling f, g or h;
//  - dv: a 32-way switch on (i - shift) % 32, a case per value, some falling
//    through, a default in the middle (hit by the negative remainders).
// Each runs with several block sizes (partial warps, partial last block)
// and is checked against the host.
// Usage: divergence [n]   (default n = 10007)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                       \
  do {                                                                    \
    cudaError_t err_ = (call);                                            \
    if (err_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
              #call, cudaGetErrorString(err_));                           \
      printf("FAIL\n");                                                   \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

__device__ int f(int x) { return x % 5; }
__device__ int g(int x) { return x * 2 + 1; }
__device__ int h(int x) { return x * x % 101 - 50; }

static int hf(int x) { return x % 5; }
static int hg(int x) { return x * 2 + 1; }
static int hh(int x) { return x * x % 101 - 50; }

__global__ void kv(const int *x, int *y, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n)
    return;
  int t;
  bool b = f(x[i]);
  if (b) {
    t = g(x[i]);
  } else {
    t = h(x[i]);
  }
  y[i] = t;
}

__global__ void fgh(const int *x, int *y, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    int t;
    if (threadIdx.x % 3 == 0)
      t = f(x[i]);
    else if (threadIdx.x % 3 == 1)
      t = g(x[i]);
    else
      t = h(x[i]);
    y[i] = t;
  }
}

// The 32-way switch; dv_host below is the same switch, on the host.
__global__ void dv(int *x, int n, int shift) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n)
    return;
  int v = x[i];
  switch ((i - shift) % 32) {
  case 0: v = v + 1; break;
  case 1: v = v * 3; break;
  case 2: v = v - 7; break;
  case 3: v = v ^ 0x55; /* fall through */
  case 4: v = v + 4; break;
  case 5: v = v * 4 + 1; break;
  case 6: v = v >> 1; break;
  case 7: v = -v; break;
  case 8: v = v % 7; break;
  case 9:
  case 10: v = v * v; break;
  case 11: v = v | 0x100; break;
  case 12: v = v & 0xff; break;
  case 13: v += 13; /* fall through */
  case 14: v *= 2; /* fall through */
  case 15: v -= 15; break;
  case 16: v = f(v); break;
  case 17: v = g(v); break;
  case 18: v = h(v); break;
  case 19: v = v / 3; break;
  case 20: v = ~v; break;
  case 21: v = v > 0 ? v : -v; break;
  case 22: v = 22; break;
  default: v = -1000 - v; break;
  case 23: v = v + 23; break;
  case 24: v = v * 24; break;
  case 25: v = (v & 1) ? v + 1 : v - 1; break;
  case 26: v = v ^ (v >> 3); break;
  case 27: v = v - 27; /* fall through */
  case 28: v = v + 28; break;
  case 29: v = v % 29; break;
  case 30: v = v * 30 - 1; break;
  case 31: v = 31 - v; break;
  }
  x[i] = v;
}

static int dv_host(int v, int sel) {
  switch (sel) {
  case 0: v = v + 1; break;
  case 1: v = v * 3; break;
  case 2: v = v - 7; break;
  case 3: v = v ^ 0x55; /* fall through */
  case 4: v = v + 4; break;
  case 5: v = v * 4 + 1; break;
  case 6: v = v >> 1; break;
  case 7: v = -v; break;
  case 8: v = v % 7; break;
  case 9:
  case 10: v = v * v; break;
  case 11: v = v | 0x100; break;
  case 12: v = v & 0xff; break;
  case 13: v += 13; /* fall through */
  case 14: v *= 2; /* fall through */
  case 15: v -= 15; break;
  case 16: v = hf(v); break;
  case 17: v = hg(v); break;
  case 18: v = hh(v); break;
  case 19: v = v / 3; break;
  case 20: v = ~v; break;
  case 21: v = v > 0 ? v : -v; break;
  case 22: v = 22; break;
  default: v = -1000 - v; break;
  case 23: v = v + 23; break;
  case 24: v = v * 24; break;
  case 25: v = (v & 1) ? v + 1 : v - 1; break;
  case 26: v = v ^ (v >> 3); break;
  case 27: v = v - 27; /* fall through */
  case 28: v = v + 28; break;
  case 29: v = v % 29; break;
  case 30: v = v * 30 - 1; break;
  case 31: v = 31 - v; break;
  }
  return v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10007;
  if (n <= 0) {
    fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 1;
  }
  const int shift = 45;   // threads i < 45 switch on a negative remainder
  size_t bytes = (size_t)n * sizeof(int);
  int *h_x = (int *)malloc(bytes), *h_y = (int *)malloc(bytes);
  int *d_x, *d_y;
  CHECK(cudaMalloc((void **)&d_x, bytes));
  CHECK(cudaMalloc((void **)&d_y, bytes));
  for (int i = 0; i < n; i++)
    h_x[i] = (i * 37) % 1001 - 500;
  CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));

  const int sizes[] = {32, 33, 100, 256, 1024};
  int bad = 0;
  for (int s = 0; s < 5; s++) {
    int threads = sizes[s], blocks = (n + threads - 1) / threads;

    kv<<<blocks, threads>>>(d_x, d_y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int want = hf(h_x[i]) ? hg(h_x[i]) : hh(h_x[i]);
      if (h_y[i] != want && bad++ < 10)
        printf("kv/%d: y[%d] = %d, want %d\n", threads, i, h_y[i], want);
    }

    fgh<<<blocks, threads>>>(d_x, d_y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int t = i % threads, xi = h_x[i];
      int want = t % 3 == 0 ? hf(xi) : t % 3 == 1 ? hg(xi) : hh(xi);
      if (h_y[i] != want && bad++ < 10)
        printf("fgh/%d: y[%d] = %d, want %d\n", threads, i, h_y[i], want);
    }

    CHECK(cudaMemcpy(d_y, d_x, bytes, cudaMemcpyDeviceToDevice));
    dv<<<blocks, threads>>>(d_y, n, shift);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int want = dv_host(h_x[i], (i - shift) % 32);
      if (h_y[i] != want && bad++ < 10)
        printf("dv/%d: x[%d] = %d, want %d (case %d)\n", threads, i, h_y[i],
               want, (i - shift) % 32);
    }
    printf("%4d threads/block: %s\n", threads, bad ? "errors so far" : "ok");
  }

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  free(h_x);
  free(h_y);
  if (bad) {
    printf("%d mismatches\nFAIL\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}

// main.cu: multi-file program: launches kernels defined in a.cu (declared
// here only) and one of its own, and calls a C helper (helper.c) and a C++
// helper (util.cpp) linked into the same executable.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

__global__ void k(int *out, int n, int add);   // defined in a.cu
__global__ void k2(float *x, int n);           // defined in a.cu
extern "C" int helper_c(int v);                // helper.c
int helper_cpp(int v);                         // util.cpp

static __device__ int twice(int v) { return 2 * v + 1; }   // not a.cu's twice
__global__ void local_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += twice(i);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1025;
  int add = helper_c(5) + helper_cpp(7);         // 5*5 + 7*3 = 46
  int *h = (int *)malloc(n * sizeof(int)), *d;
  float *hf = (float *)malloc(n * sizeof(float)), *df;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  k<<<(n + 127) / 128, 128>>>(d, n, add);
  CHECK(cudaGetLastError());
  local_kernel<<<(n + 31) / 32, 32>>>(d, n);
  CHECK(cudaGetLastError());
  k2<<<(n + 99) / 100, 100>>>(df, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hf, df, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = add != 46;
  if (bad) printf("helpers gave %d, want 46\n", add);
  for (int i = 0; i < n; i++) {
    int want = 2 * i + 46 + 2 * i + 1;
    if (h[i] != want && bad++ < 10) printf("out[%d] = %d, want %d\n", i, h[i], want);
    if (hf[i] != (float)i && bad++ < 10) printf("x[%d] = %g, want %d\n", i, hf[i], i);
  }
  cudaFree(d); cudaFree(df);
  if (bad) { printf("FAIL\n"); return 1; }
  printf("PASS\n");
  return 0;
}

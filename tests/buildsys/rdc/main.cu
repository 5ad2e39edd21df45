// main.cu: a program of three files with -rdc=true (nvcc's separate
// compilation): kernels.cu's kernel calls extern __device__ functions and
// uses extern __device__ and __constant__ variables that lib.cu defines.
#include <cstdio>
#include "vec.cuh"

int main() {
  const int n = 1000;
  float *x, *out;
  int *par;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  cudaMallocManaged(&par, n * sizeof(int));
  for (int i = 0; i < n; i++) x[i] = (float)i;
  int offs[4] = {0, 10, 20, 30};
  cudaMemcpyToSymbol(offsets, offs, sizeof offs);
  float s = 3.0f;
  cudaMemcpyToSymbol(scale, &s, sizeof s);
  run_kernels(out, x, par, n);
  cudaDeviceSynchronize();
  unsigned long long c = 0;
  cudaMemcpyFromSymbol(&c, calls, sizeof c);
  for (int i = 0; i < n; i++) {
    int t = i % 64;
    float want = 3.0f * i + 5.0f;
    int wpar = mix((t & 1) + offs[t % 4], 1);
    if (out[i] != want || par[i] != wpar) {
      printf("FAIL at %d: %f %d, expected %f %d\n", i, out[i], par[i], want, wpar);
      return 1;
    }
  }
  printf("calls %llu, mix on the host %d\n", c, mix(2, 3));
  if (c != (unsigned long long)n || mix(2, 3) != 65) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}

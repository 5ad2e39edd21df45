// header_kernels.cu: kernels, device functions and launches defined in the
// program's own headers (included twice, once through a relative path),
// and a C++ source of the same program that uses the runtime API, as nvcc
// builds them.
#include <cstdio>
#include "inc/scale.cuh"
#include "inc/scale.cuh"

int copy_back(int *h, const int *d, int n);   // host_part.cpp

int main() {
  const int n = 200;
  int h[n], *d = NULL;
  for (int i = 0; i < n; i++) h[i] = i;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 1;
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale_on_device(d, n);
  shift_kernel<1><<<(n + 63) / 64, 64>>>(d, n);
  if (copy_back(h, d, n)) return 1;
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != i * WEIGHT + i / 64 + 6;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

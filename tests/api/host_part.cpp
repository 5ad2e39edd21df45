// host_part.cpp: plain C++ of a CUDA program: includes the runtime API
// header, as a .cpp compiled by nvcc may.
#include <cuda_runtime.h>
#include <cstdio>

int copy_back(int *h, const int *d, int n) {
  cudaError_t e = cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) printf("copy_back: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}

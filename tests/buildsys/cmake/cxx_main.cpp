// cxx_main.cpp: a C++ program linked with CUDA::cudart alone
#include <cuda_runtime.h>
#include <cstdio>
int device_count();
int main() {
  int *p = nullptr;
  if (device_count() != 1 || cudaMalloc(&p, 64) != cudaSuccess || cudaMemset(p, 1, 64) != cudaSuccess) {
    printf("FAIL\n");
    return 1;
  }
  unsigned char h[64];
  cudaMemcpy(h, p, 64, cudaMemcpyDeviceToHost);
  cudaFree(p);
  printf("%s\n", h[63] == 1 ? "PASS" : "FAIL");
  return h[63] != 1;
}

#include "kernels.cuh"
#include "params.h"

__global__ void scale(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= SCALE;
}

__global__ void arch(int *out) {
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__;
#endif
}

void scale_on_device(int *h, int n) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  scale<<<(n + 63) / 64, 64>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
}

int device_arch() {
  int *d, a = 0;
  cudaMalloc(&d, sizeof(int));
  arch<<<1, 1>>>(d);
  cudaMemcpy(&a, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return a;
}

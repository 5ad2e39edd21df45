// peer_check.cu: cucc --check reports a kernel that reads another device's
// memory without access to it, where a GPU would fault: access through
// cudaDeviceEnablePeerAccess is clean, a read of device 0's memory from
// device 2 without it is an invalid access (the launch fails on device 2
// only), and so is a write from device 3 into stream-ordered memory of a
// device-0 pool that gave device 3 no access (cudaMemPoolSetAccess).
// Run with CUCC_DEVICES=4.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

static int *alloc(int dev, int n) {
  int *p;
  cudaSetDevice(dev);
  cudaMalloc(&p, n * sizeof(int));
  cudaMemset(p, 0, n * sizeof(int));
  return p;
}

int main() {
  const int n = 1000;
  int *a0 = alloc(0, n), *b1 = alloc(1, n), *c2 = alloc(2, n), *d3 = alloc(3, n);
  cudaSetDevice(1);
  cudaDeviceEnablePeerAccess(0, 0);
  copy<<<4, 256>>>(b1, a0, n);   // allowed
  printf("peer: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaSetDevice(2);
  copy<<<1, 32>>>(c2, a0, 1);    // device 2 never asked for device 0's memory
  printf("no peer: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaSetDevice(0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *p0;
  cudaMallocAsync(&p0, n * sizeof(int), s);
  cudaStreamSynchronize(s);
  cudaSetDevice(3);
  copy<<<1, 32>>>(p0, d3, 1);    // device 0's pool gave device 3 no access
  printf("pool: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaSetDevice(1);
  printf("device 1 after: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaSetDevice(0);
  cudaFreeAsync(p0, s);
  cudaStreamSynchronize(s);
  cudaFree(a0);
  cudaFree(b1);
  cudaFree(c2);
  cudaFree(d3);
  return 0;
}

// bad_cdp.cu: CDP1's device-side cudaDeviceSynchronize (a parent waiting
// for its child grid) is gone from CUDA 12: refused at its line, with why.
// (The launch itself is dynamic parallelism, which compiles: tests/cdp.)
#include <cstdio>
__global__ void child(int *v) { v[threadIdx.x] = threadIdx.x; }
__global__ void parent(int *v) {
  if (threadIdx.x == 0) child<<<1, 32>>>(v);
  cudaDeviceSynchronize();
  printf("%d\n", v[31]);
}
int main() {
  int *v;
  cudaMalloc(&v, 32 * sizeof(int));
  parent<<<1, 32>>>(v);
  return cudaDeviceSynchronize() != cudaSuccess;
}

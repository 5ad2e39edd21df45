// device_assert.cu: assert() in device code. A failing assert reports the
// thread and expression, that thread stops, and the launch fails with
// cudaErrorAssert at the next synchronization, as on a GPU (after which a
// GPU's context is unusable, so nothing else is checked); a passing one
// (also in a __device__ function) changes nothing; with -DNDEBUG nothing is
// checked.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__device__ int halve(int v) {
  assert(v % 2 == 0);
  return v / 2;
}

__global__ void check(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = halve(2 * i);
}

int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof h);
  int fails = 0;
  check<<<2, 32>>>(d, 64);   // every assert holds
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: a holding assert failed the launch\n"); fails++; }
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; i++)
    if (h[i] != i) { printf("FAIL: out[%d] = %d\n", i, h[i]); fails++; break; }
  check<<<1, 32>>>(d, 20);   // threads 20..31 fail
  cudaError_t e = cudaDeviceSynchronize();
#ifdef NDEBUG
  if (e != cudaSuccess) { printf("FAIL: NDEBUG, but %s\n", cudaGetErrorName(e)); fails++; }
#else
  if (e != cudaErrorAssert) { printf("FAIL: got %s, expected cudaErrorAssert\n", cudaGetErrorName(e)); fails++; }
#endif
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

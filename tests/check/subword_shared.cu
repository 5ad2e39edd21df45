// racecheck on __shared__ arrays of 1- and 2-byte elements (char, short,
// __half): neighbouring threads write different bytes of one 4-byte word,
// which is no hazard (each was reported as a write-after-write race, and
// the launch failed under --check).
#include <cstdio>
#include <cuda_fp16.h>

__global__ void k(int *out) {
  __shared__ short c[64];
  __shared__ unsigned char b[64];
  __shared__ __half h[64];
  unsigned t = threadIdx.x;
  c[t] = (short)t;
  b[t] = (unsigned char)t;
  h[t] = __float2half((float)t);
  b[t] += 1;                           // its own byte again
  __syncthreads();
  out[t] = c[63 - t] + b[63 - t] + (int)__half2float(h[t ^ 3]);
}

int main() {
  int *d;
  cudaMallocManaged(&d, 64 * sizeof(int));
  k<<<1, 64>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  int bad = e != cudaSuccess;
  for (int t = 0; t < 64 && !bad; t++) bad += d[t] != (63 - t) + (63 - t + 1) + (t ^ 3);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

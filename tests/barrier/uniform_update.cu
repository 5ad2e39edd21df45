// uniform_update.cu: a statement every thread runs alike that updates a
// variable declared outside it (`out += blockIdx.x * 64`, `b2 *= 2` under
// a uniform if) runs once per block, between the warp loops of its region,
// not once per warp; each thread's copy of a parameter then holds what it
// would on a GPU. 2-D blocks and a warp collective keep the region warp by
// warp (no block-wide version to hide a per-warp repeat).
#include <cstdio>

__global__ void k(int *out, int base) {
  __shared__ int s[64];
  int t = threadIdx.y * 32 + threadIdx.x;
  out += blockIdx.x * 64;
  int b2 = base;
  b2 += 3;
  if (base > 0) { b2 *= 2; base++; }
  for (int r = 0; r < 2; r++) b2 += r;
  s[t] = t + __shfl_xor_sync(0xffffffff, t, 1) * 0;
  __syncthreads();
  out[t] = s[63 - t] + 1000 * blockIdx.x + b2 + base;
}

int main() {
  int *d, h[256];
  cudaMalloc(&d, sizeof h);
  k<<<4, dim3(32, 2)>>>(d, 5);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < 4; b++)
    for (int t = 0; t < 64; t++) {
      int want = 63 - t + 1000 * b + (5 + 3) * 2 + 1 + 6;
      if (h[b * 64 + t] != want && bad++ < 5) printf("out[%d] = %d, want %d\n", b * 64 + t, h[b * 64 + t], want);
    }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

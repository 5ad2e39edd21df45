// uniform_update.cu: a statement every thread runs alike that updates a
// variable declared outside it (`out += blockIdx.x * 64`, `b2 *= 2` under
// a uniform if) runs once per block, between the warp loops of its region,
// not once per warp; each thread's copy of a parameter then holds what it
// would on a GPU. 2-D blocks and a warp collective keep the region warp by
// warp (no block-wide version to hide a per-warp repeat).
// The same stores nested in uniform control that also holds per-thread work
// (`if (pow2) { step <<= 1; sum += a[i]; }`, a uniform while loop halving a
// parameter), in kernels with and without barriers, are done on a copy per
// warp (cuda-samples' reduce7 doubled its grid stride once per warp).
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

// no barrier: one region for the whole kernel
__global__ void nested(int *out, int step, unsigned n, bool pow2) {
  out += blockIdx.x * 64;
  int t = threadIdx.y * 32 + threadIdx.x;
  int sum = 0;
  if (pow2) {
    step <<= 1;
    sum += t;
  }
  while (n > 1) {
    n >>= 1;
    sum += (int)n + (t & 1);
  }
  out[t] = sum * 1000 + step;
}

// with a barrier: the same in the region after it
__global__ void nested_sync(int *out, int step, unsigned n, bool pow2) {
  __shared__ int s[64];
  int t = threadIdx.y * 32 + threadIdx.x;
  s[t] = t;
  __syncthreads();
  out += blockIdx.x * 64;
  int sum = s[63 - t];
  if (pow2) {
    step <<= 1;
    sum += t;
  }
  while (n > 1) {
    n >>= 1;
    sum += (int)n + (t & 1);
  }
  out[t] = sum * 1000 + step;
}

static int check_nested(const char *what, bool sync) {
  int *d, h[256], bad = 0;
  cudaMalloc(&d, sizeof h);
  for (int pow2 = 0; pow2 < 2; pow2++) {
    if (sync) nested_sync<<<4, dim3(32, 2)>>>(d, 3, 64, pow2);
    else nested<<<4, dim3(32, 2)>>>(d, 3, 64, pow2);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 4; b++)
      for (int t = 0; t < 64; t++) {
        int sum = (sync ? 63 - t : 0) + (pow2 ? t : 0) + 32 + 16 + 8 + 4 + 2 + 1 + 6 * (t & 1);
        int want = sum * 1000 + (pow2 ? 6 : 3);
        if (h[b * 64 + t] != want && bad++ < 5)
          printf("%s pow2=%d: out[%d] = %d, want %d\n", what, pow2, b * 64 + t, h[b * 64 + t], want);
      }
  }
  cudaFree(d);
  return bad;
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
  bad += check_nested("nested", false) + check_nested("nested_sync", true);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

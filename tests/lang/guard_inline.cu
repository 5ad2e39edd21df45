// guard_inline.cu: a __device__ function with barriers (inlined into its
// caller) that begins with a guard, `if (...) return;` (cuda-samples'
// cdpAdvancedQuicksort's bitonic sort): what follows the guard runs for the
// other threads, the guard's own for those it sends back. (A guard that
// splits a block's threads before a barrier is reported as a divergent
// barrier: tests/barrier.)
#include <cstdio>

__device__ int reverse_first(int *s, int n, int *out) {
  int t = threadIdx.x;
  if (n <= 0) return -1;   // uniform guard
  if (blockIdx.x >= 1) { out[64 * blockIdx.x + t % 64] = -t; return 0; }   // the block's threads leave
  if (t >= blockDim.x) return 2;           // a varying guard no thread takes
  s[t] = t * 3;
  __syncthreads();
  int v = s[n - 1 - t % n];
  __syncthreads();
  s[t] = v + 1;
  __syncthreads();
  out[t] = s[t];
  return 1;
}

__global__ void k(int *out, int n, int *ret) {
  __shared__ int s[64];
  int r = reverse_first(s, n, out);
  ret[64 * blockIdx.x + threadIdx.x] = r;
}

int main() {
  int *out, *ret;
  cudaMallocManaged(&out, 128 * sizeof(int));
  cudaMallocManaged(&ret, 128 * sizeof(int));
  int bad = 0;
  for (int n : {64, 0}) {
    k<<<2, 64>>>(out, n, ret);
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
    for (int t = 0; t < 128; t++) {
      int wr = n <= 0 ? -1 : t >= 64 ? 0 : 1;
      bad += ret[t] != wr;
      if (n > 0) bad += out[t] != (t >= 64 ? -(t - 64) : (n - 1 - t % n) * 3 + 1);
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

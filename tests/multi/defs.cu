// defs.cu: -D and -I reach device code: needs -DSCALE=3 and
// -I<tests/multi/inc> (for cfg.h), else it does not compile (#error).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "cfg.h"

#if !defined(SCALE)
#error "SCALE must be defined (-DSCALE=3)"
#elif SCALE != 3
#error "SCALE must be 3"
#endif

__global__ void scaled(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef SCALE
  if (i < n) out[i] = i * SCALE + offset_of(i);
#endif
}

int main() {
  const int n = 300;
  int h[n], *d;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) { printf("cudaMalloc failed\nFAIL\n"); return 1; }
  scaled<<<(n + 63) / 64, 64>>>(d, n);
  if (cudaGetLastError() != cudaSuccess ||
      cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) {
    printf("launch or copy failed\nFAIL\n");
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (h[i] != i * 3 + 11 + (i & 1) && bad++ < 10) printf("out[%d] = %d\n", i, h[i]);
  cudaFree(d);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

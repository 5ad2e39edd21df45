// a.cu: kernels defined here and launched from main.cu (multi-file test).
#include <cuda_runtime.h>

static __device__ int twice(int v) { return 2 * v; }

__global__ void k(int *out, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = twice(i) + add;
}

// a second kernel with the same device helper name as main.cu's (static)
__global__ void k2(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = (float)twice(i) * 0.5f;
}

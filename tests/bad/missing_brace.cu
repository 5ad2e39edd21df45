// missing_brace.cu: a kernel whose closing brace is missing.
#include <cuda_runtime.h>

__global__ void k(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = i;
}

int main() {
  k<<<1, 32>>>(0, 0);
  return 0;
}

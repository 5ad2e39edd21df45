// undeclared_kernel.cu: launching a kernel that was never declared (line 7).
#include <cuda_runtime.h>

__global__ void k(int *out) { out[threadIdx.x] = 1; }

int main() {
  nothere<<<1, 32>>>(0);
  k<<<1, 32>>>(0);
  return 0;
}

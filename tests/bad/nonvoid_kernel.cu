// nonvoid_kernel.cu: a __global__ function must return void (line 5).
#include <cuda_runtime.h>

// the kernel below is invalid CUDA
__global__ int k(int *out) {
  out[threadIdx.x] = 1;
  return 0;
}

int main() {
  k<<<1, 32>>>(0);
  return 0;
}

// launch_syntax.cu: a malformed launch: <<< closed by >> (line 7).
#include <cuda_runtime.h>

__global__ void k(int *out) { out[threadIdx.x] = 1; }

int main() {
  k<<<1, 32>>(0);
  return 0;
}

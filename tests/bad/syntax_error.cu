// syntax_error.cu: a syntax error in a kernel (line 7: missing operand).
// cucc must report syntax_error.cu:7:COL: error: and exit 1.
#include <cuda_runtime.h>

__global__ void k(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i * 2 +;
  if (i < n) out[i] = v;
}

int main() {
  k<<<1, 32>>>(0, 0);
  return 0;
}

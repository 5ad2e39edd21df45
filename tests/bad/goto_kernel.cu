// goto_kernel.cu: goto in a kernel is not supported by cucc; it must say so
// at the goto (line 9) as "file:line:col: error: unsupported ..." and exit 1.
#include <cuda_runtime.h>

__global__ void k(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (out[i] < 0) goto done;
  out[i] *= 2;
done:
  out[i] += 1;
}

int main() {
  k<<<1, 32>>>(0, 0);
  return 0;
}

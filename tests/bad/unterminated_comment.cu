// unterminated_comment.cu: a block comment that never ends (line 6).
#include <cuda_runtime.h>

__global__ void k(int *out) { out[threadIdx.x] = 1; }

/* this comment is never closed
int main() {
  k<<<1, 32>>>(0);
  return 0;
}

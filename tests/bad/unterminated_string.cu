// unterminated_string.cu: a string literal that never ends (line 6).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k(int *out) {
  printf("thread %d\n, threadIdx.x);
  out[threadIdx.x] = 1;
}

int main() {
  k<<<1, 32>>>(0);
  return 0;
}

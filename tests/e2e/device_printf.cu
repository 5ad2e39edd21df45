// device_printf.cu: printf from device code, from all threads and from a
// divergent branch; the output must reach stdout by cudaDeviceSynchronize.
// The test's MATCH checks lines from several threads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hello(float base) {
  int t = threadIdx.x, b = blockIdx.x;
  printf("block %d thread %d value %.2f\n", b, t, base + t * 0.5f + b);
  if (t == 1)
    printf("only thread 1 of block %d (%s)\n", b, b ? "second" : "first");
}

int main() {
  hello<<<2, 3>>>(1.5f);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("cudaDeviceSynchronize: %s\nFAIL\n", cudaGetErrorString(e));
    return 1;
  }
  fflush(stdout);
  printf("PASS\n");
  return 0;
}

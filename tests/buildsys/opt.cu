// opt.cu: the program of the option tests (tests/buildsys/options.cmake): a
// kernel, its check, no warnings (it is built with -Werror all-warnings).
#include <cstdio>

__global__ void k(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 2 * i + 1;
}

int main() {
  const int n = 100;
  int *p = nullptr;
  cudaMallocManaged(&p, n * sizeof(int));
  k<<<(n + 31) / 32, 32>>>(p, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; i++)
    if (p[i] != 2 * i + 1) {
      printf("FAIL at %d: %d\n", i, p[i]);
      return 1;
    }
  cudaFree(p);
  printf("PASS\n");
  return 0;
}

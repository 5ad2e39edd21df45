// main.cu: checks the kernels of kernels.cu, and that the highest -gencode
// (sm_86) is the compute capability modelled
#include <cstdio>
#include "kernels.cuh"

int main() {
  const int n = 1000;
  static int h[n];
  for (int i = 0; i < n; i++) h[i] = i;
  scale_on_device(h, n);
  for (int i = 0; i < n; i++)
    if (h[i] != 3 * i) {
      printf("FAIL at %d: %d\n", i, h[i]);
      return 1;
    }
  int a = device_arch();
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("__CUDA_ARCH__ %d, model %d.%d\n", a, p.major, p.minor);
  if (a != 860 || p.major != 8 || p.minor != 6) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}

// main.cu: a program with a kernel of its own that uses libshk.so's: one
// cucc runtime between them (a stream made here, an error made there)
#include <cstdio>
extern "C" void lib_fill(int *p, int v, int n, cudaStream_t s);
extern "C" void lib_bad_launch();
extern "C" int lib_run(int n);

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

int main() {
  const int n = 10000;
  int *p;
  cudaMalloc(&p, n * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  lib_fill(p, 5, n, s);
  twice<<<(n + 255) / 256, 256, 0, s>>>(p, n);
  static int h[n];
  cudaMemcpyAsync(h, p, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  for (int i = 0; i < n; i++)
    if (h[i] != 2 * (5 + i)) {
      printf("FAIL at %d: %d\n", i, h[i]);
      return 1;
    }
  lib_bad_launch();
  cudaError_t e = cudaGetLastError();
  printf("after the library's bad launch: %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess || lib_run(n)) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}

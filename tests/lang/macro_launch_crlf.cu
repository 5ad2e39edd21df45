// macro_launch_crlf.cu: launches written in a #define's body over continued
// lines, in a file with CRLF line endings (as saved on Windows): the
// continuation is backslash, CR, LF.
#include <cstdio>

__global__ void k(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
template <int N> __global__ void kt(int *p) { p[threadIdx.x] += N; }

#define RUN(kern, n, ...)   \
  kern                      \
      <<<1, n>>>(           \
          __VA_ARGS__)
#define RUN_T(v, p)              \
  do {                           \
    kt<v><<<dim3(1), dim3(4)>>>( \
        p);                      \
  } while (0)

int main() {
  int *d, h[4];
  cudaMalloc(&d, sizeof h);
  RUN(k, 4, d, 10);
  RUN_T(5, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++)
    if (h[i] != 15 + i) {
      printf("FAIL h[%d] = %d, expected %d\n", i, h[i], 15 + i);
      return 1;
    }
  printf("PASS\n");
  return 0;
}

// macro_launch.cu: kernel launches written in a macro's argument, as
// cuda-samples do (`checkKernelErrors((k<<<g, b, smem>>>(...)))`), nested
// macros and templates included; a launch in a macro's own definition is
// refused at its use (with -DBODY), never compiled wrong.
#include <cstdio>
#define checkKernelErrors(expr)                                                     \
  do {                                                                              \
    expr;                                                                           \
    cudaError_t __err = cudaGetLastError();                                         \
    if (__err != cudaSuccess) {                                                     \
      printf("Line %d: '%s' failed: %s\n", __LINE__, #expr, cudaGetErrorString(__err)); \
      return 1;                                                                     \
    }                                                                               \
  } while (0)
#define CALL(x) x
#define LAUNCH_BODY(p) k<<<1, 4>>>(p)

__global__ void k(int *p) { p[threadIdx.x] += threadIdx.x + 1; }
template <int N> __global__ void kt(int *p) { p[threadIdx.x] += N; }

int main() {
  int *p;
  cudaMallocManaged(&p, 4 * sizeof(int));
  for (int i = 0; i < 4; i++) p[i] = 0;
  checkKernelErrors((k<<<1, 4>>>(p)));
  checkKernelErrors((k<<<dim3(1), dim3(4), 0, 0>>>(p)));
  CALL((kt<10><<<1, 4>>>(p)));
  CALL(CALL((k<<<1, 4>>>(p))));
  CALL((k<<<1, 2000>>>(p)));   // too many threads: the launch's error as usual
  cudaError_t e = cudaGetLastError();
#ifdef BODY
  LAUNCH_BODY(p);
#endif
  cudaDeviceSynchronize();
  int ok = 1;
  for (int i = 0; i < 4; i++) ok &= p[i] == 3 * (i + 1) + 10;
  ok &= e == cudaErrorInvalidValue;
  printf("%d %d %d %d, %s\n%s\n", p[0], p[1], p[2], p[3], cudaGetErrorName(e), ok ? "PASS" : "FAIL");
  return !ok;
}

// macro_launch.cu: kernel launches written in a macro's argument, as
// cuda-samples do (`checkKernelErrors((k<<<g, b, smem>>>(...)))`), nested
// macros and templates included, and in a macro's own definition: the
// kernel a parameter or a name (qualified, a template's instance, pasted
// with ##, from an array of kernel pointers, with a leading ::), over
// continued lines, with a stream, in a macro used twice, after a comment;
// a definition holding only the configuration (`#define CFG <<<1, 4>>>`)
// or whose arguments are its parameter (`k<<<1, 4>>> p`) is refused at its
// use (with -DBODY), never compiled wrong.
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
#define RUN(kern, n, ...) kern<<<1, n>>>(__VA_ARGS__)
#define RUN_T(v, p)                                   \
  do {                                                \
    ns::kt2<v>                                        \
        <<<dim3(1), dim3(4), 0, cudaStream_t(0)>>>(   \
            p, /* a <<< in a comment */ v);           \
  } while (0)
#define PASTE(name, p) k##name<<<1, 4>>>((p))
#define ARR(i, d) do { ks[i]<<<1, 4>>>(d); } while (0)
#define GLOB(x) ::k<<<1, 4>>>(x)
#define NS(x) ::ns::kt2<7><<<1, 4>>>(x, 1)
#define CMT(x) /* don't "quote" */ k<<<1, 4>>>(x)
#define CFG <<<1, 4>>>
#define ARGS_PARAM(p) k<<<1, 4>>> p

__global__ void k(int *p) { p[threadIdx.x] += threadIdx.x + 1; }
__global__ void kadd(int *p) { p[threadIdx.x] += 1000; }
template <int N> __global__ void kt(int *p) { p[threadIdx.x] += N; }
namespace ns {
template <int N> __global__ void kt2(int *p, int m) { p[threadIdx.x] += N * m; }
}

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
  LAUNCH_BODY(p);
  RUN(k, 4, p);
  RUN(kt<5>, 4, p);
  RUN_T(3, p);
  PASTE(add, p);
  if (p) LAUNCH_BODY(p); else RUN(kadd, 4, p);
  int *q;   // a kernel from an array of pointers, ::k, ::ns::kt2<7>, a comment with quotes
  cudaMallocManaged(&q, 4 * sizeof(int));
  for (int i = 0; i < 4; i++) q[i] = 0;
  void (*ks[2])(int *) = {k, kadd};
  ARR(1, q);
  GLOB(q);
  NS(q);
  CMT(q);
#ifdef BODY
  k CFG (p);
  ARGS_PARAM((p));
#endif
  cudaDeviceSynchronize();
  int ok = 1;
  for (int i = 0; i < 4; i++) ok &= p[i] == 6 * (i + 1) + 10 + 5 + 9 + 1000;
  ok &= e == cudaErrorInvalidValue;
  for (int i = 0; i < 4; i++) ok &= q[i] == 1000 + 2 * (i + 1) + 7;
  printf("%d %d %d %d, %s\n%s\n", p[0], p[1], p[2], p[3], cudaGetErrorName(e), ok ? "PASS" : "FAIL");
  return !ok;
}

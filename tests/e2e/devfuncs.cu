// devfuncs.cu: __device__ functions: arguments of many types (char, short,
// unsigned, long long, float, double, bool, pointers, a struct), void
// functions writing through pointers, recursion with a per-thread depth
// (factorial, fibonacci), a __host__ __device__ function used by the kernel
// and the host reference, __forceinline__ and __noinline__, a device function
// reading threadIdx/blockIdx itself, and calls nested in expressions.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 10
struct Pair { int a; float b; };

__device__ long long fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
__device__ int fib(int k) {
  if (k < 2) return k;
  return fib(k - 1) + fib(k - 2);
}
__host__ __device__ int mix(int x, unsigned y, long long z) {
  return (int)((x * 31 + (int)(y % 1000)) ^ (int)(z >> 3));
}
__device__ __forceinline__ float lerp(float a, float b, float t) { return a + t * (b - a); }
__device__ __noinline__ double poly(double x) { return ((2.0 * x - 3.0) * x + 0.5) * x; }
__device__ int many(char c, short s, unsigned char uc, bool f, long long l, double d) {
  return c + s * 2 + uc * 3 + (f ? 1000 : -1000) + (int)(l % 1000) + (int)d;
}
__device__ void swap2(int *p, int *q) { int t = *p; *p = *q; *q = t; }
__device__ Pair mkpair(int a, float b) { Pair p; p.a = a; p.b = b; return p; }
__device__ int sumpair(Pair p, const Pair *q) { return p.a + q->a + (int)(p.b * q->b); }
__device__ int my_lane_info(int mul) {      // uses the builtins itself
  return (threadIdx.x % 32) * mul + blockIdx.x * 100000;
}

__global__ void calls(const int *in, long long *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  long long *r = o + (long long)i * K;
  r[0] = fact(i % 21);                       // per-thread recursion depth
  r[1] = fib(i % 17);
  r[2] = mix(x, (unsigned)i * 2654435761u, (long long)x * x * x);
  r[3] = (long long)(lerp((float)x, (float)(x + 8), 0.25f) * 4.0f);
  r[4] = (long long)poly(x * 0.5);
  r[5] = many((char)(i % 100), (short)(x * 3), (unsigned char)(i * 7), x > 0, (long long)x * 1000003, x / 4.0);
  int p = x, q = i;
  if (i % 2) swap2(&p, &q);                  // only some threads call
  r[6] = p * 10000 + q;
  Pair a = mkpair(x, 0.5f), b = mkpair(i, 4.0f);
  r[7] = sumpair(a, &b);
  r[8] = my_lane_info(3);
  r[9] = mix(fib(i % 10), (unsigned)fact(i % 6), fact(i % 11) + fib(i % 12)) + fib(mix(1, 2, 3) % 5);
}

static long long hfact(int k) { return k <= 1 ? 1 : k * hfact(k - 1); }
static int hfib(int k) { return k < 2 ? k : hfib(k - 1) + hfib(k - 2); }
static double hpoly(double x) { return ((2.0 * x - 3.0) * x + 0.5) * x; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1500;
  const int bs = 128;
  int *hin = (int *)malloc(n * sizeof(int));
  long long *ho = (long long *)malloc((size_t)n * K * sizeof(long long));
  for (int i = 0; i < n; i++) hin[i] = (i * 7919) % 401 - 200;
  int *din; long long *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, (size_t)n * K * sizeof(long long)));
  CHECK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
  calls<<<(n + bs - 1) / bs, bs>>>(din, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, dout, (size_t)n * K * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int x = hin[i];
    long long w[K];
    w[0] = hfact(i % 21);
    w[1] = hfib(i % 17);
    w[2] = mix(x, (unsigned)i * 2654435761u, (long long)x * x * x);
    w[3] = (long long)(((float)x + 0.25f * 8.0f) * 4.0f);
    w[4] = (long long)hpoly(x * 0.5);
    w[5] = (char)(i % 100) + (short)(x * 3) * 2 + (unsigned char)(i * 7) * 3 +
           (x > 0 ? 1000 : -1000) + (int)(((long long)x * 1000003) % 1000) + (int)(x / 4.0);
    w[6] = i % 2 ? (long long)i * 10000 + x : (long long)x * 10000 + i;
    w[7] = x + i + (int)(0.5f * 4.0f);
    w[8] = (i % bs % 32) * 3 + (i / bs) * 100000;
    w[9] = mix(hfib(i % 10), (unsigned)hfact(i % 6), hfact(i % 11) + hfib(i % 12)) + hfib(mix(1, 2, 3) % 5);
    for (int k = 0; k < K; k++)
      if (ho[(long long)i * K + k] != w[k] && bad++ < 10)
        printf("thread %d (x=%d) r[%d] = %lld, want %lld\n", i, x, k, ho[(long long)i * K + k], w[k]);
  }
  cudaFree(din); cudaFree(dout);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

// default_args.cu: arguments left to their defaults in device code, where
// the default is not a constant (`int i = threadIdx.x`, `blockDim.x`, a
// __device__ variable) as well as where it is: in plain and member
// functions, a template, and a call from another device function. libclang
// shows such an argument as an expression with no children and no place:
// cucc reads the parameter's own default (parse.c's call_arg); before, the
// call was refused at <unknown>:0:0.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int bias = 7;

__device__ int pick(const int *a, int i = threadIdx.x) { return a[i]; }
__device__ int scaled(int v, int k = 2, unsigned n = blockDim.x) { return v * k + (int)n; }
__device__ int with_bias(int v, int b = bias) { return v + b; }
template <typename T> __device__ T twice(T v, T m = (T)threadIdx.x) { return v * 2 + m; }

struct Lane {
  int base;
  __device__ int at(const int *a, int off = threadIdx.x % 32) const { return a[base + off]; }
};

__device__ int nested(const int *a) { return pick(a) + scaled(1); }

__global__ void k(const int *a, int *o) {
  int t = threadIdx.x;
  Lane l{32 * (t / 32)};
  o[5 * t] = pick(a) + pick(a, 0);
  o[5 * t + 1] = scaled(t) + scaled(t, 3, 1);
  o[5 * t + 2] = with_bias(t) + with_bias(t, 1);
  o[5 * t + 3] = twice(t) + (int)twice(1.5f, 0.25f);
  o[5 * t + 4] = l.at(a) + nested(a);
}

int main() {
  const int n = 96;
  int *a, *o, fails = 0;
  cudaMallocManaged(&a, n * sizeof(int));
  cudaMallocManaged(&o, 5 * n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i * 3 + 1;
  k<<<1, n>>>(a, o);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(e)); return 1; }
  for (int t = 0; t < n; t++) {
    int want[5] = {a[t] + a[0], (t * 2 + n) + (t * 3 + 1), (t + 7) + (t + 1), (t * 2 + t) + 3,
                   a[t] + (a[t] + (1 * 2 + n))};
    for (int j = 0; j < 5; j++)
      if (o[5 * t + j] != want[j]) {
        printf("FAIL: thread %d, value %d: %d, want %d\n", t, j, o[5 * t + j], want[j]);
        fails++;
      }
  }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

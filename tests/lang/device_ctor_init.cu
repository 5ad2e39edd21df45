// device_ctor_init.cu: what the host unit keeps of device code may name
// device-only things: a __device__ constructor's member and base
// initializers and default member initializers that read threadIdx,
// blockIdx, blockDim or call __device__-only functions (in classes and
// class templates; brace-initialized members); against a CPU reference.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int lane() { return threadIdx.x & 31; }
template <typename T> __device__ T twice(T v) { return v + v; }

struct Idx { int tid; __device__ Idx() : tid(threadIdx.x) {} };
struct Dflt { int t = threadIdx.x; int u = 3; int b{(int)blockIdx.x}; };
struct Calls {
  int l, m = lane() * 2, n{lane() + 1};
  __device__ Calls() : l(lane() + (int)blockDim.x) {}
};
struct Base { int v; __device__ Base(int x) : v(x) {} };
struct Derived : Base { int w; __device__ Derived() : Base(lane()), w(twice(lane())) {} };
template <typename T> struct Box {
  T x, y;
  __device__ Box() : x(twice((T)threadIdx.x)), y(twice<T>((T)lane()) + (T)1) {}
};

// a class template's default member initializers that do not depend on
// its parameters (read from the pattern: an implicit instance shows none)
template <typename T> struct Acc {
  T sum = 0;
  int tid = threadIdx.x;
  int l{lane() * 3};
  T w;
  __device__ Acc() : w((T)2) {}
};
template <typename T> struct Plain { int n = 5; T s = 1; };

__global__ void k(int *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Idx a;
  Dflt d;
  Calls c;
  Derived e;
  Box<int> b;
  Acc<float> acc;
  Plain<double> pl;
  o[i] = a.tid + 10 * d.t + 100 * d.u + 1000 * d.b + c.l + c.m + c.n + e.v + e.w + b.x + b.y +
         (int)acc.sum + 10000 * acc.tid + 100000 * acc.l + (int)acc.w + pl.n + (int)pl.s;
}

int main() {
  const int nb = 2, nt = 64, n = nb * nt;
  int *o;
  cudaMallocManaged(&o, n * sizeof(int));
  k<<<nb, nt>>>(o);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
  int fails = 0;
  for (int i = 0; i < n; i++) {
    int t = i % nt, bk = i / nt, l = t & 31;
    int want = t + 10 * t + 300 + 1000 * bk + (l + nt) + 2 * l + (l + 1) + l + 2 * l + 2 * t + (2 * l + 1) +
               10000 * t + 100000 * 3 * l + 2 + 5 + 1;
    if (o[i] != want) { printf("o[%d] %d, expected %d\n", i, o[i], want); fails++; }
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}

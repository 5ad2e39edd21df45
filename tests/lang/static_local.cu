// static_local.cu: function-scope statics in device code: const lookup
// tables (int, float, 2-D, of structs, of strings' characters) in device
// functions, kernels, templates and member functions, and a mutable
// `static __device__` counter shared by every thread, against a CPU
// reference.
#include <cstdio>
#include <cuda_runtime.h>

struct Pair { int a; float b; };

__device__ int lookup(int v) {
  static const int tab[5] = {7, 11, 13, 17, 19};
  return tab[v % 5];
}

__device__ float weight(int i) {
  static const float w[2][3] = {{0.5f, 1.5f, -2.0f}, {3.25f, 1e-3f, 4.0f}};
  return w[i & 1][i % 3];
}

template <typename T> __device__ T scaled(int i) {
  static const T f[3] = {T(1), T(2), T(3)};   // one table per instantiation
  return f[i % 3] * (T)sizeof(T);
}

struct Coder {
  __device__ int code(int i) const {
    static const Pair p[2] = {{4, 0.25f}, {-6, 8.0f}};
    return p[i & 1].a + (int)p[i & 1].b;
  }
};

__device__ unsigned *counter_addr() {
  static __device__ unsigned calls;           // zero-initialized, one for the program
  return &calls;
}

__global__ void k(int *oi, float *of, double *od, int *oc, char *os) {
  static const char name[] = "static";        // a kernel's own table
  static constexpr int off = 100;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  oi[i] = lookup(i) + off;
  of[i] = weight(i) + scaled<float>(i);
  od[i] = scaled<double>(i);
  oc[i] = Coder().code(i);
  os[i] = name[i % 6];
  atomicAdd(counter_addr(), 1u);
}

__global__ void read_counter(unsigned *o) { *o = *counter_addr(); }

int main() {
  const int n = 64;
  int *oi, *oc;
  float *of;
  double *od;
  char *os;
  unsigned *cnt;
  cudaMallocManaged(&oi, n * sizeof(int));
  cudaMallocManaged(&oc, n * sizeof(int));
  cudaMallocManaged(&of, n * sizeof(float));
  cudaMallocManaged(&od, n * sizeof(double));
  cudaMallocManaged(&os, n);
  cudaMallocManaged(&cnt, sizeof(unsigned));
  k<<<2, 32>>>(oi, of, od, oc, os);
  k<<<2, 32>>>(oi, of, od, oc, os);
  read_counter<<<1, 1>>>(cnt);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
  const int tab[5] = {7, 11, 13, 17, 19};
  const float w[2][3] = {{0.5f, 1.5f, -2.0f}, {3.25f, 1e-3f, 4.0f}};
  const Pair p[2] = {{4, 0.25f}, {-6, 8.0f}};
  int fails = 0;
  for (int i = 0; i < n; i++) {
    float rf = w[i & 1][i % 3] + (float)(i % 3 + 1) * 4.0f;
    double rd = (double)(i % 3 + 1) * 8.0;
    int rc = p[i & 1].a + (int)p[i & 1].b;
    if (oi[i] != tab[i % 5] + 100 || of[i] != rf || od[i] != rd || oc[i] != rc || os[i] != "static"[i % 6]) {
      printf("%d: %d %g %g %d %c, expected %d %g %g %d %c\n", i, oi[i], of[i], od[i], oc[i], os[i],
             tab[i % 5] + 100, rf, rd, rc, "static"[i % 6]);
      fails++;
    }
  }
  if (*cnt != 2 * n) { printf("counter %u, expected %d\n", *cnt, 2 * n); fails++; }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}

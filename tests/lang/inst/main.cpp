// main.cpp: calls the instantiations that kernels.cu makes; this unit
// sees only their declarations.
#include <cstdio>
#include <cuda_runtime.h>
#include "scale.h"

template <class T> static int check(int which, double f, bool neg) {
  const int n = 1000;
  T *p;
  cudaMallocManaged(&p, n * sizeof(T));
  for (int i = 0; i < n; i++) p[i] = (T)(i % 17);
  lib::scale(p, n, which);
  cudaError_t e = cudaDeviceSynchronize();
  int bad = e != cudaSuccess;
  if (bad) printf("which %d: %s\n", which, cudaGetErrorString(e));
  for (int i = 0; i < n && !bad; i++) {
    T want = neg ? -(T)(i % 17) : (T)((i % 17) * f + i);
    if (p[i] != want) {
      printf("which %d: p[%d] = %g, want %g\n", which, i, (double)p[i], (double)want);
      bad = 1;
    }
  }
  cudaFree(p);
  return bad;
}

int main() {
  int bad = check<int>(2, 2, false) + check<int>(3, 3, false) + check<int>(0, 0, true) +
            check<float>(3, 3, false) + check<float>(1, 0, true) + check<double>(2, 2, false);
  long long *q, v = 40;
  cudaMallocManaged(&q, 64 * sizeof *q);
  void *args[] = {&q, &v};
  cudaError_t e = cudaLaunchKernel(fill_ll, dim3(1), dim3(64), args, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess || q[63] != 103) {
    printf("fill_k<long long>: %s, q[63] = %lld\n", cudaGetErrorString(e), q[63]);
    bad++;
  }
  // members of explicitly instantiated class templates
  float *f;
  int *k;
  cudaMallocManaged(&f, 100 * sizeof(float));
  cudaMallocManaged(&k, 100 * sizeof(int));
  for (int i = 0; i < 100; i++) f[i] = (float)i, k[i] = i;
  lib::Runner<float> rf = {1.5f};
  lib::Runner<int> ri = {-3};
  rf(f, 100);
  e = cudaDeviceSynchronize();
  int twice = ri.twice(k, 100);
  if (e != cudaSuccess || f[99] != 100.5f || k[99] != 93 || twice != -6) {
    printf("Runner: %s, %g %d %d\n", cudaGetErrorString(e), f[99], k[99], twice);
    bad++;
  }
  printf("%s\n", bad ? "FAILED" : "PASS");
  return bad != 0;
}

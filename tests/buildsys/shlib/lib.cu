// lib.cu: a shared library with kernels (-Xcompiler -fPIC -shared), used
// by a program that has kernels of its own and by a plain C++ program.
#include <cstdio>

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

// launches on the caller's stream
extern "C" void lib_fill(int *p, int v, int n, cudaStream_t s) {
  fill<<<(n + 127) / 128, 128, 0, s>>>(p, v, n);
}

// a launch that fails: the caller sees the error
extern "C" void lib_bad_launch() { fill<<<1, 4096>>>(nullptr, 0, 0); }

// all of it in the library: memory, launch, copy back; the wrong count
extern "C" int lib_run(int n) {
  int *d, wrong = 0;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<(n + 127) / 128, 128>>>(d, 7, n);
  int *h = new int[n];
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) wrong += h[i] != 7 + i;
  delete[] h;
  cudaFree(d);
  return wrong;
}

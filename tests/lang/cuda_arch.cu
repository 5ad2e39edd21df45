// cuda_arch.cu: __CUDA_ARCH__ follows -arch in device code (kernels,
// templates, __host__ __device__ functions, #if in a kernel body) and is
// undefined in host code, as with nvcc. The expected value is argv[1].
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__host__ __device__ int arch() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}

template <int N> __global__ void probe(int *o) {
#if __CUDA_ARCH__ >= 700
  o[threadIdx.x] = arch() * 10 + N;   // Volta and later
#elif defined(__CUDA_ARCH__)
  o[threadIdx.x] = -arch();
#else
  o[threadIdx.x] = 12345;             // never: kernels are device code
#endif
}

int main(int argc, char **argv) {
  int want = argc > 1 ? atoi(argv[1]) : 750;
  int *o;
  cudaMallocManaged(&o, 4 * sizeof(int));
  probe<3><<<1, 4>>>(o);
  cudaDeviceSynchronize();
  int dev = want >= 700 ? want * 10 + 3 : -want;
  bool ok = o[0] == dev && o[3] == dev && arch() == -1;
  printf("device %d (expected %d), host %d\n%s\n", o[0], dev, arch(), ok ? "PASS" : "FAIL");
  return !ok;
}

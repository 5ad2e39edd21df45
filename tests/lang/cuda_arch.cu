// cuda_arch.cu: __CUDA_ARCH__ follows -arch in device code (kernels,
// templates, __host__ __device__ functions, #if in a kernel body) and is
// undefined in host code, as with nvcc. The expected value is argv[1].
// Also in kernels launched from a host template with its own parameter
// (`k<B><<<...>>>` in `template <int B> void run()`, as cuda-samples'
// reduction does), whose device code comes from the __CUDA_ARCH__ parse
// too: there an explicit specialization under `#if __CUDA_ARCH__ >= 800`
// is the one called.
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

template <class T> __device__ int pick(T) { return 1; }   // the primary template
#if __CUDA_ARCH__ >= 800
template <> __device__ int pick<int>(int) { return 800; }   // sm_80 and later only
#endif

template <class T, int B> __global__ void via(int *o) { o[threadIdx.x] = pick<T>(T()) + B; }

template <int B> int run_via(int *o) {   // the kernel's arguments name B: a dependent launch
  via<int, B><<<1, B>>>(o);
  cudaDeviceSynchronize();
  return o[B - 1];
}

int main(int argc, char **argv) {
  int want = argc > 1 ? atoi(argv[1]) : 750;
  int *o;
  cudaMallocManaged(&o, 4 * sizeof(int));
  probe<3><<<1, 4>>>(o);
  cudaDeviceSynchronize();
  int dev = want >= 700 ? want * 10 + 3 : -want;
  bool ok = o[0] == dev && o[3] == dev && arch() == -1;
  printf("device %d (expected %d), host %d\n", o[0], dev, arch());
  int v = run_via<4>(o), vw = (want >= 800 ? 800 : 1) + 4;
  printf("launched from a template: %d (expected %d)\n", v, vw);
  ok = ok && v == vw;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}

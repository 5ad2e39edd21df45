// arch.cu: the compute capability that -arch, -code and -gencode select:
// __CUDA_ARCH__ in device code and the device model's properties.
// usage: arch <expected __CUDA_ARCH__>
#include <cstdio>
#include <cstdlib>

__global__ void arch(int *out) {
#ifdef __CUDA_ARCH__
  out[threadIdx.x] = __CUDA_ARCH__;
#else
  out[threadIdx.x] = -1;
#endif
}

int main(int argc, char **argv) {
  int want = argc > 1 ? atoi(argv[1]) : 750;
  int *p = nullptr;
  cudaMallocManaged(&p, 32 * sizeof(int));
  arch<<<1, 32>>>(p);
  cudaDeviceSynchronize();
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int model = prop.major * 100 + prop.minor * 10;
  for (int i = 0; i < 32; i++)
    if (p[i] != want) {
      printf("FAIL: __CUDA_ARCH__ %d, expected %d\n", p[i], want);
      return 1;
    }
  if (model != want) {
    printf("FAIL: the device model is %d.%d, expected %d\n", prop.major, prop.minor, want);
    return 1;
  }
  printf("__CUDA_ARCH__ %d, %s\nPASS\n", p[0], prop.name);
  return 0;
}

// host.cpp: plain C++ in a CUDA target, using the runtime API through
// CUDA::cudart (cucc's headers and runtime)
#include <cuda_runtime.h>

int device_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : -1;
}

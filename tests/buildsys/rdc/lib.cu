// lib.cu: device functions and variables for the other files (-rdc=true)
#include "vec.cuh"

__device__ float scale = 2.0f;
__device__ unsigned long long calls;
__constant__ int offsets[4];

// private to this file: the same name in kernels.cu must not clash
static __device__ float helper(float v) { return v; }

__device__ float axpy(float a, float x, float y) { return helper(a) * x + y; }
__device__ int lane_parity() {
#ifdef __CUDA_ARCH__   // (device code is read from a second parse where it is defined)
  return (threadIdx.x & 1) + offsets[threadIdx.x % 4];
#else
  return -1;
#endif
}
__host__ __device__ int mix(int a, int b) { return a * 31 + b; }
namespace geo {
__device__ float dist2(float x, float y) { return x * x + y * y; }
}

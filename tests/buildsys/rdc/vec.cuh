// vec.cuh: what the three files of the -rdc program share: device
// functions and variables defined in one file, used in another
#pragma once
extern __device__ float axpy(float a, float x, float y);      // lib.cu
extern __device__ int lane_parity();                          // lib.cu: reads threadIdx
__host__ __device__ int mix(int a, int b);                    // lib.cu: host and device
extern __device__ float scale;                                // lib.cu, initialized
extern __device__ unsigned long long calls;                   // lib.cu, counted by kernels.cu
extern __constant__ int offsets[4];                           // lib.cu, set by main.cu
namespace geo {
__device__ float dist2(float x, float y);                     // lib.cu, in a namespace
}
void run_kernels(float *out, const float *x, int *par, int n);   // kernels.cu

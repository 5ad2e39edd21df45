// scale.cuh: kernels, a device-only function and a host launcher in a
// header, as the samples' *_kernel.cuh files are (pragma once, and a
// quoted include relative to this folder).
#pragma once
#include "sub/weights.h"

__device__ int weigh(int x) { return x * WEIGHT + blockIdx.x; }

__global__ void scale_kernel(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = weigh(p[i]);
}

template <int K> __global__ void shift_kernel(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += K;
}

static void scale_on_device(int *d, int n) {
  scale_kernel<<<(n + 63) / 64, 64>>>(d, n);
  shift_kernel<5><<<(n + 63) / 64, 64>>>(d, n);
}

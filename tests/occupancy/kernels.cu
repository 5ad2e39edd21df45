// kernels.cu: kernels for cucc-occupancy's second form (tests/occupancy):
// static shared memory, __launch_bounds__, a template, dynamic shared
// memory. Run, it prints what the CUDA occupancy API says of each kernel on
// the model it was built for; the test compares the tool's numbers with
// these (both come from the same compile of this file's kernels).
#include <cstdio>

__global__ void plain(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }

__global__ void tiled(float *p) {
  __shared__ float t[3000];   // 12000 bytes of static shared memory
  t[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = t[(threadIdx.x + 1) % blockDim.x];
}

__global__ void __launch_bounds__(128) bounded(float *p) { p[threadIdx.x] *= 2.0f; }

// a thread's registers grow with N: arrays of up to 64 bytes stay in them
template <int N> __global__ void many(float *p) {
  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = p[threadIdx.x + i], b[i] = a[i] * 2, c[i] = a[i] + b[i];
  float s = 0;
  for (int i = 0; i < N; i++) s += a[i] * b[(i + 1) % N] + c[(i + 2) % N];
  p[threadIdx.x] = s;
}
template __global__ void many<16>(float *);

__global__ void dynamic(float *p) {
  extern __shared__ float d[];
  d[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = d[blockDim.x - 1 - threadIdx.x];
}

template <class K> static void show(const char *name, K k, size_t dyn) {
  int grid = 0, block = 0, n = 0;
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, k, dyn);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, block, dyn);
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, k);
  printf("OCC %s|%d|%d|%d|%zu\n", name, block, n, a.numRegs, a.sharedSizeBytes + dyn);
}

int main() {
  show("plain(float *)", plain, 0);
  show("tiled(float *)", tiled, 0);
  show("bounded(float *)", bounded, 0);
  show("many<16>(float *)", many<16>, 0);
  show("dynamic(float *)", dynamic, 0);
  show("dynamic(float *)+60000", dynamic, 60000);
  printf("PASS\n");
  return 0;
}

// file_shared.cu: __shared__ variables declared outside any function (the
// cuda-samples' dct8x8 keeps its blocks so), one per block in each kernel
// that uses them: named by the kernel and by device functions it calls (one
// object for both), used by two kernels, and an extern dynamic one.
#include <cstdio>

__shared__ float tile[64];
__shared__ int count;
extern __shared__ float dyn[];

__device__ void load(const float *in) {
  tile[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
}

__device__ float mirrored() { return tile[63 - threadIdx.x]; }

__global__ void flip(const float *in, float *out) {
  load(in);
  atomicAdd(&count, 1);
  float m = mirrored();
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = m + tile[threadIdx.x] * 1000 + count * 1e6f;
}

__global__ void scaled(const float *in, float *out, float k) {
  tile[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x] * k;
  dyn[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = tile[(threadIdx.x + 1) % 64] + dyn[63 - threadIdx.x];
}

int main() {
  const int B = 5, N = B * 64;
  float *in, *out;
  cudaMallocManaged(&in, N * sizeof(float));
  cudaMallocManaged(&out, N * sizeof(float));
  for (int i = 0; i < N; i++) in[i] = (float)(i % 37);
  int bad = 0;
  flip<<<B, 64>>>(in, out);
  cudaDeviceSynchronize();
  for (int b = 0; b < B; b++)
    for (int t = 0; t < 64; t++) bad += out[b * 64 + t] != in[b * 64 + 63 - t] + in[b * 64 + t] * 1000 + 64e6f;
  scaled<<<B, 64, 64 * sizeof(float)>>>(in, out, 3);
  cudaDeviceSynchronize();
  for (int b = 0; b < B; b++)
    for (int t = 0; t < 64; t++) bad += out[b * 64 + t] != in[b * 64 + (t + 1) % 64] * 3 + (63 - t);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

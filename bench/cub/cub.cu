// bench/cub: a block reduction written with CUB's BlockReduce (its
// default algorithm, BLOCK_REDUCE_WARP_REDUCTIONS, and RAKING) against the
// plain shared-memory tree reduction a CUDA course writes (issue 23's
// target: within 2x). Each block of 256 threads sums 256 ints into a
// partial sum; every result is checked against the CPU's.
// Usage: cub [cub|raking|plain] [log2 n]; prints TIME <ms> per repetition.
#include <cub/block/block_reduce.cuh>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

enum { B = 256 };

__global__ void cub_k(const int *in, int *part) {
  typedef cub::BlockReduce<int, B> BR;
  __shared__ typename BR::TempStorage temp;
  int s = BR(temp).Sum(in[blockIdx.x * B + threadIdx.x]);
  if (threadIdx.x == 0) part[blockIdx.x] = s;
}

__global__ void raking_k(const int *in, int *part) {
  typedef cub::BlockReduce<int, B, cub::BLOCK_REDUCE_RAKING> BR;
  __shared__ typename BR::TempStorage temp;
  int s = BR(temp).Sum(in[blockIdx.x * B + threadIdx.x]);
  if (threadIdx.x == 0) part[blockIdx.x] = s;
}

__global__ void plain_k(const int *in, int *part) {
  __shared__ int sh[B];
  sh[threadIdx.x] = in[blockIdx.x * B + threadIdx.x];
  __syncthreads();
  for (int s = B / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = sh[0];
}

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
  int mode = argc < 2 || !strcmp(argv[1], "cub") ? 0 : !strcmp(argv[1], "raking") ? 1 : 2;
  int n = 1 << (argc > 2 ? atoi(argv[2]) : 24), nb = n / B;
  int *in, *part;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&part, nb * sizeof(int));
  long long want = 0;
  for (int i = 0; i < n; i++) in[i] = (int)((i * 2654435761u) >> 24) - 128, want += in[i];
  for (int r = 0; r < 6; r++) {
    double t0 = now_ms();
    if (mode == 0) cub_k<<<nb, B>>>(in, part);
    else if (mode == 1) raking_k<<<nb, B>>>(in, part);
    else plain_k<<<nb, B>>>(in, part);
    cudaDeviceSynchronize();
    printf("TIME %.3f\n", now_ms() - t0);
  }
  long long got = 0;
  for (int b = 0; b < nb; b++) got += part[b];
  if (got != want) {
    printf("CHECK failed: %lld, want %lld\n", got, want);
    return 1;
  }
  return 0;
}

// cuda_barrier.cu: libcu++'s cuda::barrier as blocks use it (the
// cuda-samples' simpleAWBarrier): a __shared__ barrier of the block,
// init by one thread, split arrive/wait with the token moved in
// (std::move in device code), and arrive_and_wait, in 1-D and 2-D blocks;
// std::forward too; cuda::memcpy_async into shared memory through the
// barrier, by each thread and by the block (with <cuda/atomic> beside it:
// one cuda::thread_scope). Checked against sums on the CPU.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <utility>
namespace cg = cooperative_groups;

struct Pair { int a, b; };
template <class T> __device__ T pass(T &&t) { return std::forward<T>(t); }

__global__ void sums(const int *in, int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int part[256];
  int t = threadIdx.x + threadIdx.y * blockDim.x, n = blockDim.x * blockDim.y;
  if (t == 0) init(&bar, n);
  __syncthreads();
  __shared__ int stage[256];
  if (t % 2) cuda::memcpy_async(&stage[t], &in[blockIdx.x * n + t], sizeof(int), bar);   // odd threads
  cuda::memcpy_async(cg::this_thread_block(), stage, &in[blockIdx.x * n], n / 2 * sizeof(int), bar);   // the first half
  bar.arrive_and_wait();
  part[t] = t % 2 || t < n / 2 ? stage[t] : in[blockIdx.x * n + t];
  auto token = bar.arrive();
  bar.wait(std::move(token));
  for (int s = n / 2; s > 0; s /= 2) {
    int v = t < s ? part[t + s] : 0;
    bar.arrive_and_wait();
    if (t < s) part[t] += v;
    bar.arrive_and_wait();
  }
  Pair p = {part[0], t};
  Pair q = pass(std::move(p));
  if (t == 0) out[blockIdx.x] = q.a + q.b;
}

int main() {
  const int B = 6;
  int bad = 0;
  for (int shape = 0; shape < 2; shape++) {
    dim3 blk = shape ? dim3(16, 8) : dim3(128);
    int n = 128, *in, *out;
    cudaMallocManaged(&in, B * n * sizeof(int));
    cudaMallocManaged(&out, B * sizeof(int));
    for (int i = 0; i < B * n; i++) in[i] = (i * 7) % 23 - 11;
    sums<<<B, blk>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    for (int b = 0; b < B; b++) {
      int want = 0;
      for (int i = 0; i < n; i++) want += in[b * n + i];
      bad += e != cudaSuccess || out[b] != want;
    }
    cudaFree(in);
    cudaFree(out);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

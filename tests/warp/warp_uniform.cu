// warp_uniform.cu: values the same in every lane of a warp that come from
// collectives (issue 20's shapes): a vote's or __activemask()'s result,
// __ffs and __popc of it, a shuffle from one lane, and a __reduce_*_sync
// result, used where only some lanes run (the warp-aggregated counter of
// NVIDIA's filtering pro tip, a leader's atomic handed out by a shuffle).
// lowering/shape.c gives them stride 0: computed once a warp in whole and
// half rows (tests/lower checks that in cucc --dump-lir). Checked against
// the CPU in whole rows (1-D blocks of 128), half rows (16 x 8) and the
// general version (48 threads: warps that are not whole rows).
#include <cstdio>
#include <cuda_runtime.h>

__device__ int agg_inc(int *ctr) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int change = __popc(active);
  unsigned lane = (threadIdx.x + threadIdx.y * blockDim.x) % 32;
  unsigned rank = __popc(active & ((1u << lane) - 1));
  int base;
  if (rank == 0) base = atomicAdd(ctr, change);
  base = __shfl_sync(active, base, leader);
  return base + rank;
}

// out[slot] = value for the kept elements; per thread: its warp's
// ballot count, the warp's leader lane's value by a broadcast, and the
// sum of the warp's (kept) values by __reduce_add_sync under a mask
__global__ void filter(const int *in, int *out, int *ctr, int *info, int n) {
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
  int v = i < n ? in[i] : -1;
  if (v > 0) out[agg_inc(ctr)] = v;
  // the warp's threads (a block of 48: its second warp has 16)
  int left = blockDim.x * blockDim.y - t / 32 * 32;
  unsigned all = left >= 32 ? 0xffffffffu : (1u << left) - 1;
  unsigned kept = __ballot_sync(all, v > 0);
  int first = __ffs(kept) - 1;   // -1: none kept
  int lead = __shfl_sync(all, v, first < 0 ? 0 : first);
  int sum = 0;
  if (v > 0) sum = __reduce_add_sync(kept, v);
  if (i < n) {
    info[3 * i] = __popc(kept);
    info[3 * i + 1] = first < 0 ? -1 : lead;
    info[3 * i + 2] = sum;
  }
}

int main() {
  const int n = 5000;
  int *in, *out, *ctr, *info, fails = 0;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  cudaMallocManaged(&ctr, sizeof(int));
  cudaMallocManaged(&info, 3 * n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = (i * 7919) % 5 < 2 ? i % 100 + 1 : -(i % 3);
  dim3 shapes[] = {dim3(128, 1), dim3(16, 8), dim3(48, 1)};
  for (dim3 b : shapes) {
    int per = b.x * b.y, blocks = (n + per - 1) / per;
    *ctr = 0;
    filter<<<blocks, b>>>(in, out, ctr, info, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(e)); return 1; }
    // the kept elements, each once
    long long want = 0, got = 0;
    int nk = 0;
    for (int i = 0; i < n; i++)
      if (in[i] > 0) want += in[i], nk++;
    for (int k = 0; k < *ctr; k++) got += out[k];
    if (*ctr != nk || got != want) { printf("FAIL: block %ux%u: kept %d (sum %lld), want %d (%lld)\n", b.x, b.y, *ctr, got, nk, want); fails++; }
    // per thread, from its warp (32 consecutive threads of its block; the
    // last warp of the grid may run past n with v = -1)
    for (int i = 0; i < n; i++) {
      int blk = i / per, t = i % per, w0 = blk * per + t / 32 * 32, cnt = 0, first = -1, sum = 0;
      for (int l = 0; l < 32 && t / 32 * 32 + l < per; l++) {
        int j = w0 + l, v = j < n ? in[j] : -1;
        if (v > 0) { cnt++; sum += v; if (first < 0) first = v; }
      }
      int wsum = in[i] > 0 ? sum : 0;
      if (info[3 * i] != cnt || info[3 * i + 1] != first || info[3 * i + 2] != wsum) {
        printf("FAIL: block %ux%u thread %d: %d %d %d, want %d %d %d\n", b.x, b.y, i, info[3 * i], info[3 * i + 1], info[3 * i + 2], cnt, first, wsum);
        fails++;
        break;
      }
    }
  }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

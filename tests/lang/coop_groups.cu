// coop_groups.cu: cooperative groups against a CPU reference, for a block
// shape given on the command line (x y): thread_block sync/thread_rank/size,
// a reduction through a generic thread_group (a whole block, then tiles of
// 16 from tiled_partition(cta, 16)), thread_block_tile<32> and <8> with
// shfl, shfl_down, shfl_up, shfl_xor, ballot, any, all, meta_group_rank,
// cg::reduce with plus and greater, coalesced_threads() in a divergent
// branch, a warp reduction in a __device__ function with collectives, a
// tile of two warps (cg::reduce, block_tile_memory) and a block sum in a
// device function template with its own __shared__ array.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// declared before it is defined, with a device-only parameter type (as
// eigenvalues' headers do): the host compiler never sees either
__device__ int group_sum(cg::thread_group g, int *x, int val);

enum { SUM, TILE16, R32, M32, SHD, SHU, BAL8, VOTE, COAL, WRED, MW64, BSUM, NV };

__device__ int group_sum(cg::thread_group g, int *x, int val) {
  int r = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[r] = val;
    g.sync();
    if (r < i) val += x[r + i];
    g.sync();
  }
  return g.thread_rank() == 0 ? val : -1;
}

__device__ int warp_sum(int v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

template <class T> __device__ T block_sum(T v) {
  __shared__ T part[32];   // one per block, in a device function
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0 && threadIdx.y == 0) part[0] = 0;
  __syncthreads();
  if ((threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0) atomicAdd(&part[0], v);
  __syncthreads();
  T r = part[0];
  __syncthreads();
  return r;
}

__global__ void groups(int *out) {
  __shared__ cg::block_tile_memory<1024> scratch;
  cg::thread_block cta = cg::this_thread_block(scratch);
  extern __shared__ int ws[];
  unsigned t = cta.thread_rank(), n = cta.size();
  int *o = out + t * NV;
  int v = (int)(t * 7 % 13);
  o[SUM] = group_sum(cta, ws, v);
  cg::sync(cta);
  cg::thread_group t16 = cg::tiled_partition(cta, 16);
  o[TILE16] = group_sum(t16, ws + (t / 16) * 16, v) + 1000 * (int)t16.meta_group_rank();
  cta.sync();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cta);
  o[R32] = cg::reduce(w, v, cg::plus<int>()) + 1000 * (int)w.meta_group_rank();
  o[M32] = cg::reduce(w, v, cg::greater<int>()) * 100 + w.shfl(v, 5);
  o[SHD] = w.shfl_down(v, 3) * 100 + w.shfl_xor(v, 6);
  cg::thread_block_tile<8> e = cg::tiled_partition<8>(cta);
  o[SHU] = e.shfl_up(v, 2) * 100 + (int)e.thread_rank() * 10 + (int)e.size() / 8;
  o[BAL8] = (int)e.ballot(v > 6);
  o[VOTE] = e.any(v == 12) + 2 * e.all(v < 12) + 4 * w.any(v == 0) + 8 * w.all(v >= 0);
  o[COAL] = -1;
  if (v % 2 == 1) {
    cg::coalesced_group a = cg::coalesced_threads();
    o[COAL] = (int)a.thread_rank() * 10000 + (int)a.size() * 100 + a.shfl(v, a.size() - 1) +
              cg::reduce(a, v, cg::plus<int>()) * 1000000;
  }
  o[WRED] = warp_sum(v);
  cg::thread_block_tile<64> two = cg::tiled_partition<64>(cta);
  o[MW64] = cg::reduce(two, v, cg::plus<int>()) + 1000 * (int)two.meta_group_rank();
  two.sync();
  o[BSUM] = block_sum(v) + block_sum(1) * 100000;
  (void)n;
}

int main(int argc, char **argv) {
  int bx = argc > 2 ? atoi(argv[1]) : 64, by = argc > 2 ? atoi(argv[2]) : 1;
  int n = bx * by;   // a power of two from 32: whole warps, tree reductions
  int *d;
  cudaMalloc(&d, n * NV * sizeof(int));
  groups<<<1, dim3(bx, by), n * sizeof(int)>>>(d);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: launch\n"); return 1; }
  int *got = (int *)malloc(n * NV * sizeof(int)), *v = (int *)malloc(n * sizeof(int));
  cudaMemcpy(got, d, n * NV * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < n; t++) v[t] = t * 7 % 13;
  int bad = 0;
  for (int t = 0; t < n && bad < 10; t++) {
    int w0 = t / 32 * 32, e0 = t / 8 * 8, l = t % 32, want[NV];
    int sum = 0, s16 = 0, s32 = 0, m32 = 0, b8 = 0, any12 = 0, all12 = 1, any0 = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    for (int i = t / 16 * 16; i < t / 16 * 16 + 16; i++) s16 += v[i];
    for (int i = w0; i < w0 + 32; i++) { s32 += v[i]; m32 = v[i] > m32 ? v[i] : m32; any0 |= v[i] == 0; }
    for (int i = e0; i < e0 + 8; i++) { b8 |= (v[i] > 6) << (i - e0); any12 |= v[i] == 12; all12 &= v[i] < 12; }
    want[SUM] = t == 0 ? sum : -1;
    want[TILE16] = (t % 16 == 0 ? s16 : -1) + 1000 * (t / 16);
    want[R32] = s32 + 1000 * (t / 32);
    want[M32] = m32 * 100 + v[w0 + 5];
    want[SHD] = (l + 3 < 32 ? v[t + 3] : v[t]) * 100 + v[w0 + (l ^ 6)];
    want[SHU] = (t % 8 >= 2 ? v[t - 2] : v[t]) * 100 + t % 8 * 10 + 1;
    want[BAL8] = b8;
    want[VOTE] = any12 + 2 * all12 + 4 * any0 + 8;
    want[COAL] = -1;
    if (v[t] % 2 == 1) {
      int rank = 0, size = 0, last = 0, s = 0;
      for (int i = w0; i < w0 + 32; i++)
        if (v[i] % 2 == 1) { rank += i < t; size++; last = v[i]; s += v[i]; }
      want[COAL] = rank * 10000 + size * 100 + last + s * 1000000;
    }
    want[WRED] = s32;
    int s64 = 0;
    for (int i = t / 64 * 64; i < t / 64 * 64 + 64; i++) s64 += v[i];
    want[MW64] = s64 + 1000 * (t / 64);
    want[BSUM] = sum + n * 100000;
    for (int k = 0; k < NV; k++)
      if (got[t * NV + k] != want[k]) {
        printf("thread %d value %d: %d, expected %d\n", t, k, got[t * NV + k], want[k]);
        bad++;
      }
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

// parked.cu: a block-level if whose threads disagree runs its side with the
// other threads parked, so a barrier under it that the takers never reach
// is no barrier at all: a cg::thread_group's sync() is a __syncthreads()
// for a block and a __syncwarp() for a tile, and dxtc calls it for a tile of
// 16 inside `if (idx < 16)`. Both sides of an if, nested ifs, a return in a
// parked side, and a real __syncthreads() after them, checked on the host.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__device__ void rank16(const float *v, int *rank, cg::thread_group tile) {
  int t = threadIdx.x, r = 0;
  for (int i = 0; i < 16; i++) r += v[i] < v[t];
  rank[t] = r;
  cg::sync(tile);
  for (int i = 0; i < 15; i++) {   // ties: as dxtc resolves them
    if (t > i && rank[t] == rank[i]) ++rank[t];
    cg::sync(tile);
  }
}

__global__ void tile_in_if(const float *in, int *out) {
  __shared__ float v[16];
  __shared__ int rank[16];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(cta, 16);
  int t = threadIdx.x;
  if (t < 16) {
    v[t] = in[blockIdx.x * 16 + t];
    cg::sync(tile);
    rank16(v, rank, tile);
  }
  cg::sync(cta);
  out[blockIdx.x * blockDim.x + t] = t < 16 ? rank[t] : -rank[t % 16];
}

__global__ void sides(int *out, int *fin) {
  __shared__ int s[256];
  cg::thread_group w = cg::tiled_partition(cg::this_thread_block(), 32);
  int t = threadIdx.x, warp = t / 32, lane = t % 32;
  s[t] = t;
  __syncthreads();
  if (warp % 2 == 0) {   // each side exchanges within its warp
    int v = s[warp * 32 + (lane + 1) % 32] * 2;
    w.sync();            // (reads before writes: lanes are not in lockstep)
    s[t] = v;
    w.sync();
    out[t] = s[t] + 1;
  } else {
    int v = s[warp * 32 + (lane + 31) % 32] * 3;
    w.sync();
    s[t] = v;
    w.sync();
    if (lane < 8) {      // nested, and a return in it
      w.sync();
      if (lane == 7) return;
      out[t] = s[t] + 2;
    } else {
      out[t] = -s[t];
    }
  }
  __syncthreads();       // every thread but the returned reaches it
  if (t == 0) {
    int n = 0;
    for (int i = 0; i < blockDim.x; i++) n += s[i];
    *fin = n;
  }
}

int main() {
  const int B = 4;
  float h[16 * B];
  for (int i = 0; i < 16 * B; i++) h[i] = (float)((i * 7919) % 23);   // ties too
  float *din;
  int *dout, *dfin;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, 256 * B * sizeof(int));
  cudaMalloc(&dfin, sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  tile_in_if<<<B, 64>>>(din, dout);
  int ho[256 * B];
  int fails = 0;
  cudaError_t e = cudaMemcpy(ho, dout, 64 * B * sizeof(int), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) { printf("tile_in_if: %s\n", cudaGetErrorString(e)); fails++; }
  for (int b = 0; b < B; b++) {
    int rank[16];
    for (int t = 0; t < 16; t++) { rank[t] = 0; for (int i = 0; i < 16; i++) rank[t] += h[b * 16 + i] < h[b * 16 + t]; }
    for (int i = 0; i < 15; i++) for (int t = 15; t > i; t--) (void)t;
    // ties as the kernel resolves them: sequentially in i, all t at once
    for (int i = 0; i < 15; i++) {
      int nr[16];
      for (int t = 0; t < 16; t++) nr[t] = rank[t] + (t > i && rank[t] == rank[i]);
      for (int t = 0; t < 16; t++) rank[t] = nr[t];
    }
    for (int t = 0; t < 64; t++) {
      int want = t < 16 ? rank[t] : -rank[t % 16];
      if (ho[b * 64 + t] != want && fails++ < 5) printf("tile_in_if block %d thread %d: %d, want %d\n", b, t, ho[b * 64 + t], want);
    }
  }
  cudaMemset(dout, 0, 256 * sizeof(int));
  sides<<<1, 256>>>(dout, dfin);
  int fin = 0;
  e = cudaMemcpy(ho, dout, 256 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&fin, dfin, sizeof fin, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) { printf("sides: %s\n", cudaGetErrorString(e)); fails++; }
  for (int t = 0; t < 256; t++) {
    int warp = t / 32, lane = t % 32, want;
    if (warp % 2 == 0) want = (warp * 32 + (lane + 1) % 32) * 2 + 1;
    else if (lane == 7) want = 0;
    else if (lane < 8) want = (warp * 32 + (lane + 31) % 32) * 3 + 2;
    else want = -(warp * 32 + (lane + 31) % 32) * 3;
    if (ho[t] != want && fails++ < 10) printf("sides thread %d: %d, want %d\n", t, ho[t], want);
  }
  int sum = 0;
  for (int t = 0; t < 256; t++) sum += (t / 32) % 2 == 0 ? (t / 32 * 32 + (t % 32 + 1) % 32) * 2 : (t / 32 * 32 + (t % 32 + 31) % 32) * 3;
  if (fin != sum) { printf("sides: thread 0 sums %d after the last barrier, want %d\n", fin, sum); fails++; }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}

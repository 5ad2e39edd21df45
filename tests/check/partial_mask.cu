// partial_mask.cu: a full mask (0xffffffff) in a block's last, partial warp
// (80 threads: its last warp has 16 lanes) names lanes that are no threads:
// CUDA allows it, and compute-sanitizer's synccheck reports nothing on an
// H200 (recorded: o[63] 79, o[64] 73, o[79] 8: a shuffle from a lane past
// the last thread reads 0). A mask leaving out a live lane is still
// reported (bugs.cu's check_sync_mask).
#include <cstdio>
__global__ void k(int *o) {
  int v = threadIdx.x;
  v = __shfl_down_sync(0xffffffffu, v, 1);
  unsigned b = __ballot_sync(0xffffffffu, threadIdx.x & 1);
  __syncwarp();
  o[threadIdx.x] = v + (int)__popc(b);
}
int main() {
  int *o, h[80];
  cudaMalloc(&o, 80 * sizeof(int));
  k<<<1, 80>>>(o);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  printf("o[63] %d o[64] %d o[79] %d\n", h[63], h[64], h[79]);
  bool ok = h[63] == 79 && h[64] == 73 && h[79] == 8;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}

// sched.cu: the order in which blocks and warps run. ./sched inorder expects
// blocks and warps in index order (one worker, the default schedule);
// ./sched shuffled expects CUCC_SCHEDULE=shuffle to change both. Either way
// the sum computed alongside must be right.
#include <cstdio>
#include <cstring>

#define BLOCKS 64
#define WARPS 8

__global__ void record(int *border, int *worder, int *next, int *sum) {
  int w = threadIdx.x / 32;
  if (threadIdx.x == 0) border[blockIdx.x] = atomicAdd(&next[0], 1);
  if (threadIdx.x % 32 == 0) worder[blockIdx.x * WARPS + w] = atomicAdd(&next[1 + blockIdx.x], 1);
  atomicAdd(sum, (int)(blockIdx.x * blockDim.x + threadIdx.x));
}

int main(int argc, char **argv) {
  bool want_shuffled = argc > 1 && !strcmp(argv[1], "shuffled");
  int *b, *w, *n, *s, hb[BLOCKS], hw[BLOCKS * WARPS], hs;
  cudaMalloc(&b, sizeof hb);
  cudaMalloc(&w, sizeof hw);
  cudaMalloc(&n, (BLOCKS + 1) * sizeof(int));
  cudaMalloc(&s, sizeof(int));
  cudaMemset(n, 0, (BLOCKS + 1) * sizeof(int));
  cudaMemset(s, 0, sizeof(int));
  record<<<BLOCKS, WARPS * 32>>>(b, w, n, s);
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  cudaMemcpy(hw, w, sizeof hw, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hs, s, sizeof hs, cudaMemcpyDeviceToHost);
  int bmoved = 0, wmoved = 0, total = BLOCKS * WARPS * 32;
  for (int i = 0; i < BLOCKS; i++) bmoved += hb[i] != i;
  for (int i = 0; i < BLOCKS * WARPS; i++) wmoved += hw[i] != i % WARPS;
  printf("blocks out of order: %d, warps out of order: %d\n", bmoved, wmoved);
  bool ok = hs == total * (total - 1) / 2 && (want_shuffled ? bmoved && wmoved : !bmoved && !wmoved);
  cudaFree(b);
  cudaFree(w);
  cudaFree(n);
  cudaFree(s);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}

// launch_errors.cu: launches with a bad configuration fail with the codes an
// H100 gives (tests/data/h100_cuda13_truth.txt, LAUNCH lines: all
// cudaErrorInvalidValue, and cudaDeviceSynchronize still succeeds), and the
// kernel does not run (it would set a flag). Limits themselves are fine.
// A good launch afterwards still works.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

__global__ void setflag(int *flag) { flag[0] = 1; }

static int bad = 0;

static void try_launch(const char *what, dim3 grid, dim3 block, size_t smem, cudaError_t want,
                       int *dflag) {
  int flag = 0;
  CHECK(cudaMemset(dflag, 0, sizeof(int)));
  cudaGetLastError();
  setflag<<<grid, block, smem>>>(dflag);
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t e = cudaGetLastError();
  cudaError_t again = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  CHECK(cudaMemcpy(&flag, dflag, sizeof(int), cudaMemcpyDeviceToHost));
  int ok = e == want && peek == want && again == cudaSuccess && sync == cudaSuccess &&
           flag == (want == cudaSuccess);
  printf("%-12s -> %s (sync %s), kernel %s: %s\n", what, cudaGetErrorName(e),
         cudaGetErrorName(sync), flag ? "ran" : "did not run", ok ? "ok" : "WRONG");
  if (!ok) {
    printf("  want %s, peek gave %s, second get %s\n", cudaGetErrorName(want),
           cudaGetErrorName(peek), cudaGetErrorName(again));
    bad++;
  }
}

int main() {
  int *dflag;
  CHECK(cudaMalloc(&dflag, sizeof(int)));
  const cudaError_t inval = cudaErrorInvalidValue;
  try_launch("block0", dim3(1), dim3(0), 0, inval, dflag);
  try_launch("block1025", dim3(1), dim3(1025), 0, inval, dflag);
  try_launch("block2048", dim3(1), dim3(2048), 0, inval, dflag);
  try_launch("block1024x2", dim3(1), dim3(1024, 2), 0, inval, dflag);
  try_launch("blockz65", dim3(1), dim3(1, 1, 65), 0, inval, dflag);
  try_launch("grid0", dim3(0), dim3(32), 0, inval, dflag);
  try_launch("gridy65536", dim3(1, 65536), dim3(32), 0, inval, dflag);
  try_launch("gridz65536", dim3(1, 1, 65536), dim3(32), 0, inval, dflag);
  try_launch("smem49153", dim3(1), dim3(32), 49153, inval, dflag);
  try_launch("smem200k", dim3(1), dim3(32), 200000, inval, dflag);
  // at the limits: fine
  try_launch("blockz64", dim3(1), dim3(1, 1, 64), 0, cudaSuccess, dflag);
  try_launch("blocky1024", dim3(1), dim3(1, 1024, 1), 0, cudaSuccess, dflag);
  try_launch("block1024", dim3(1), dim3(1024), 0, cudaSuccess, dflag);
  try_launch("smem49152", dim3(1), dim3(32), 49152, cudaSuccess, dflag);
  try_launch("gridy65535", dim3(1, 65535), dim3(1), 0, cudaSuccess, dflag);
  // a bad launch between good ones does not disturb them
  try_launch("ok", dim3(2), dim3(33), 0, cudaSuccess, dflag);
  try_launch("block1025", dim3(1), dim3(1025), 0, inval, dflag);
  try_launch("ok-again", dim3(3), dim3(7, 3), 0, cudaSuccess, dflag);
  CHECK(cudaFree(dflag));
  if (bad) { printf("%d launches misbehaved\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

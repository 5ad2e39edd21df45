// interleave.cu: an SM switches between its resident blocks at barriers.
// Thread 0 of each block logs (block, region) at each of three regions.
// With one SM holding two 512-thread blocks (sm_75: 1024 threads per SM),
// blocks 0 and 1 alternate region by region, then blocks 2 and 3.
#include <cstdio>
#include <cstring>

__device__ int step;

__global__ void logk(int *log) {
  __shared__ int s[512];
  s[threadIdx.x] = threadIdx.x;
  for (int r = 0; r < 3; r++) {
    if (threadIdx.x == 0) { log[step] = blockIdx.x * 10 + r; step = step + 1; }
    __syncthreads();
  }
}

int main(int argc, char **argv) {
  int *log, h[64];
  cudaMalloc(&log, sizeof h);
  logk<<<4, 512>>>(log);
  cudaMemcpy(h, log, 12 * sizeof(int), cudaMemcpyDeviceToHost);
  char got[256] = "";
  for (int i = 0; i < 12; i++) sprintf(got + strlen(got), "%s%02d", i ? " " : "", h[i]);
  printf("order: %s\n", got);
  const char *want = argc > 1 ? argv[1] : "";
  bool ok = !strcmp(got, want);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

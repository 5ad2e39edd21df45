// grid_sync.cu: grid.sync() in a cooperative launch. Each block sums a
// grid-strided share into shared memory and writes its partial; after
// grid.sync() block 0 adds the partials; after a second grid.sync() every
// block reads the total. A grid larger than the device can hold at once is
// refused with cudaErrorCooperativeLaunchTooLarge, and grid.sync() in an
// ordinary launch fails the launch.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void gsum(const int *in, int *part, int *out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block tb = cg::this_thread_block();
  __shared__ int s[256];
  int t = threadIdx.x, acc = 0;
  for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size()) acc += in[i];
  s[t] = acc;
  tb.sync();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    tb.sync();
  }
  if (t == 0) part[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0 && t == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; b++) sum += part[b];
    *out = sum;
  }
  grid.sync();
  if (t == 0) part[blockIdx.x] = *out + blockIdx.x;
  s[(t + 1) % blockDim.x] = t;   // after a barrier: no hazard with the read of s[0] (racecheck)
}

int main() {
  const int n = 100000, T = 256;
  int *in, *part, *out, bad = 0;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&part, 4096 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  long long want = 0;
  for (int i = 0; i < n; i++) { in[i] = i % 7 - 3; want += in[i]; }
  int per_sm = 0, sms = 0, coop = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gsum, T, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
  int nb = per_sm * sms < 40 ? per_sm * sms : 40;
  printf("%d blocks/SM x %d SMs, cooperative %d, grid %d\n", per_sm, sms, coop, nb);
  int nn = n;
  void *args[] = {&in, &part, &out, &nn};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)gsum, dim3(nb), dim3(T), args, 0, 0);
  cudaError_t s = cudaDeviceSynchronize();
  if (e != cudaSuccess || s != cudaSuccess) { printf("launch: %s, sync: %s\n", cudaGetErrorName(e), cudaGetErrorName(s)); bad++; }
  if (*out != want) { printf("total %d, want %lld\n", *out, want); bad++; }
  for (int b = 0; b < nb; b++)
    if (part[b] != want + b && bad++ < 5) printf("part[%d] = %d, want %lld\n", b, part[b], want + b);
  e = cudaLaunchCooperativeKernel((void *)gsum, dim3(per_sm * sms + 1), dim3(T), args, 0, 0);
  printf("too large: %s\n", cudaGetErrorName(e));
  if (e != cudaErrorCooperativeLaunchTooLarge) bad++;
  gsum<<<2, T>>>(in, part, out, n);
  s = cudaDeviceSynchronize();
  printf("ordinary launch: %s\n", cudaGetErrorName(s));
  if (s != cudaErrorLaunchFailure) bad++;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

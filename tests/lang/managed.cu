// managed.cu: __managed__ variables (scalars, arrays, structs, with and
// without __device__, static, in a namespace) written and read by host code
// directly, around kernels that read and write them too, and the symbol API
// on them; checked against a CPU reference.
#include <cstdio>
#include <cuda_runtime.h>

struct Stats { int count; float sum; };

__managed__ int counter;                       // managed alone implies __device__
__device__ __managed__ float buf[64];
__managed__ Stats stats = {0, 0.0f};
static __managed__ int s_scale = 3;            // internal linkage
namespace ns { __managed__ unsigned flags[4]; }

__device__ float twice(float v) { return 2.0f * v; }

__global__ void step(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&counter, 1);
  buf[i] = twice(buf[i]) + s_scale;
  atomicAdd(&stats.count, 1);
  atomicAdd(&stats.sum, buf[i]);
  atomicOr(&ns::flags[i % 4], 1u << (i / 4 % 32));
}

int main() {
  int fails = 0;
  const int n = 64;
  float ref[n];
  counter = 10;                                // host writes directly
  for (int i = 0; i < n; i++) buf[i] = ref[i] = (float)i;
  for (int r = 0; r < 2; r++) {
    step<<<2, 32>>>(n);
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
    for (int i = 0; i < n; i++) ref[i] = 2.0f * ref[i] + s_scale;
    s_scale++;                                 // host changes what the next launch reads
  }
  float rsum = 0;
  for (int r = 0; r < 2; r++)                  // the sums added by each round
    for (int i = 0; i < n; i++) rsum += r == 0 ? 2.0f * i + 3 : 2.0f * (2.0f * i + 3) + 4;
  if (counter != 10 + 2 * n) { printf("counter %d, expected %d\n", counter, 10 + 2 * n); fails++; }
  for (int i = 0; i < n; i++)
    if (buf[i] != ref[i]) { printf("buf[%d] %g, expected %g\n", i, buf[i], ref[i]); fails++; break; }
  if (stats.count != 2 * n || stats.sum != rsum) { printf("stats %d %g, expected %d %g\n", stats.count, stats.sum, 2 * n, rsum); fails++; }
  for (int j = 0; j < 4; j++)
    if (ns::flags[j] != 0xffffu) { printf("flags[%d] %x\n", j, ns::flags[j]); fails++; }
  // the symbol API works on them as on __device__ variables
  int v = 5, back = 0;
  if (cudaMemcpyToSymbol(counter, &v, sizeof v) != cudaSuccess || counter != 5) { printf("ToSymbol\n"); fails++; }
  counter = 9;
  if (cudaMemcpyFromSymbol(&back, counter, sizeof back) != cudaSuccess || back != 9) { printf("FromSymbol %d\n", back); fails++; }
  void *addr = NULL;
  size_t size = 0;
  if (cudaGetSymbolAddress(&addr, buf) != cudaSuccess || addr != (void *)buf) { printf("GetSymbolAddress\n"); fails++; }
  if (cudaGetSymbolSize(&size, stats) != cudaSuccess || size != sizeof(Stats)) { printf("GetSymbolSize %zu\n", size); fails++; }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}

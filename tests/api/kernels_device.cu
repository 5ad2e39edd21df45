// kernels_device.cu: kernels as values and their attributes, and the device
// API around them. A host pointer to a __global__ function is stored, passed
// around and launched with <<<>>> and with cudaLaunchKernel (in a stream);
// cudaFuncGetAttributes/SetAttribute (the dynamic shared memory limit is
// enforced), cache configs, device limits, peer queries, versions,
// device flags and the profiler calls, with CUDA's errors for misuse.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda.h>
#include <cuda_profiler_api.h>

static int bad = 0;
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(cond) do { if (!(cond)) { printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond); bad++; } } while (0)
#define EXPECT_ERR(call, err) do { cudaError_t e_ = (call); if (e_ != (err)) { \
  printf("%s:%d: %s gave %s, want %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_), #err); bad++; } \
  (void)cudaGetLastError(); } while (0)

__global__ void add(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}
__global__ void mul(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= v;
}
// reverses blocks of blockDim.x elements through dynamic shared memory
__global__ void rev(int *p) {
  extern __shared__ int buf[];
  int t = threadIdx.x, b = blockIdx.x * blockDim.x;
  buf[t] = p[b + t];
  __syncthreads();
  p[b + t] = buf[blockDim.x - 1 - t];
}
__global__ void __launch_bounds__(128) bounded(int *p) {
  __shared__ int s[64];
  s[threadIdx.x % 64] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

typedef void (*op_t)(int *, int, int);
struct Step { op_t k; int v; };

// launches whatever kernel it is given
static void apply(op_t k, int *d, int n, int v) { k<<<(n + 63) / 64, 64>>>(d, n, v); }

int main() {
  const int n = 300;
  int *d = NULL, h[n];
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemset(d, 0, n * sizeof(int)));

  // ---- kernel function pointers: a table of steps, launched both ways ----
  Step steps[] = {{add, 3}, {mul, 5}, {add, -1}, {mul, 2}};
  for (const Step &st : steps) apply(st.k, d, n, st.v);   // ((0+3)*5-1)*2 = 28
  CHECK(cudaGetLastError());
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  op_t k = steps[1].k;
  int v = 3, nn = n;
  void *args[] = {&d, &nn, &v};
  CHECK(cudaLaunchKernel((const void *)k, dim3((n + 31) / 32), dim3(32), args, 0, s));   // * 3 = 84
  CHECK(cudaLaunchKernel(add, dim3((n + 31) / 32), dim3(32), args, 0, s));              // + 3 = 87 (template form)
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 87;
  EXPECT(wrong == 0);
  EXPECT_ERR(cudaLaunchKernel((const void *)apply, dim3(1), dim3(1), args, 0, 0), cudaErrorInvalidDeviceFunction);
  EXPECT_ERR(cudaLaunchKernel(add, dim3(1), dim3(2048), args, 0, 0), cudaErrorInvalidValue);

  // ---- attributes ----
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, bounded));
  EXPECT(fa.maxThreadsPerBlock == 128);
  EXPECT(fa.sharedSizeBytes == 64 * sizeof(int));
  EXPECT(fa.numRegs > 0);
  CHECK(cudaFuncGetAttributes(&fa, rev));
  EXPECT(fa.maxThreadsPerBlock == 1024 && fa.sharedSizeBytes == 0);
  EXPECT(fa.maxDynamicSharedSizeBytes == 48 * 1024);
  EXPECT_ERR(cudaFuncGetAttributes(&fa, (const void *)apply), cudaErrorInvalidDeviceFunction);
  bounded<<<1, 256>>>(d);   // more threads than __launch_bounds__ allows
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);

  // dynamic shared memory above 48 KiB needs the opt-in attribute (sm_75: up to 64 KiB)
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int big = (int)prop.sharedMemPerBlockOptin;
  EXPECT(big > 48 * 1024);
  const int bs = 1024;
  int *r = NULL, hr[bs];
  CHECK(cudaMalloc(&r, bs * sizeof(int)));
  for (int i = 0; i < bs; i++) hr[i] = i;
  CHECK(cudaMemcpy(r, hr, sizeof hr, cudaMemcpyHostToDevice));
  rev<<<1, bs, big>>>(r);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_ERR(cudaFuncSetAttribute(rev, cudaFuncAttributeMaxDynamicSharedMemorySize, big + 1), cudaErrorInvalidValue);
  CHECK(cudaFuncSetAttribute(rev, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
  CHECK(cudaFuncGetAttributes(&fa, rev));
  EXPECT(fa.maxDynamicSharedSizeBytes == big);
  rev<<<1, bs, big>>>(r);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < bs; i++) wrong += hr[i] != bs - 1 - i;
  EXPECT(wrong == 0);
  CHECK(cudaFuncSetAttribute(rev, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  EXPECT_ERR(cudaFuncSetAttribute(rev, cudaFuncAttributePreferredSharedMemoryCarveout, 101), cudaErrorInvalidValue);
  CHECK(cudaFuncSetCacheConfig(rev, cudaFuncCachePreferShared));
  EXPECT_ERR(cudaFuncSetCacheConfig((const void *)apply, cudaFuncCachePreferL1), cudaErrorInvalidDeviceFunction);
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
  cudaFuncCache cc;
  CHECK(cudaDeviceGetCacheConfig(&cc));
  EXPECT(cc == cudaFuncCachePreferL1);

  // ---- limits ----
  size_t lim = 0;
  CHECK(cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize));
  EXPECT(lim == 8650752);   // an H100's default (tests/warp/gpu_behaviour.cu)
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
  CHECK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
  EXPECT(lim == 64 << 20);
  CHECK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
  EXPECT(lim == 1024);
  CHECK(cudaDeviceGetLimit(&lim, cudaLimitDevRuntimeSyncDepth));
  EXPECT(lim == 1024);   // recorded on an H100
  EXPECT_ERR(cudaDeviceSetLimit((cudaLimit)0x42, 1), cudaErrorInvalidValue);   // recorded on an H100
  EXPECT_ERR(cudaDeviceGetLimit(NULL, cudaLimitStackSize), cudaErrorInvalidValue);

  // ---- one device: no peers ----
  int can = 7;
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
  EXPECT(can == 0);
  EXPECT_ERR(cudaDeviceCanAccessPeer(&can, 0, 1), cudaErrorInvalidDevice);
  EXPECT_ERR(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessUnsupported);   // recorded on an H100

  // ---- versions: the macros and the calls agree, the driver is new enough ----
  int rt = 0, drv = 0;
  CHECK(cudaRuntimeGetVersion(&rt));
  CHECK(cudaDriverGetVersion(&drv));
  EXPECT(rt == CUDART_VERSION && drv >= rt);
  EXPECT(CUDA_VERSION == CUDART_VERSION && CUDART_VERSION / 1000 == 12);
  EXPECT(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 == CUDART_VERSION);
  EXPECT_ERR(cudaRuntimeGetVersion(NULL), cudaErrorInvalidValue);

  // ---- device flags, profiler ----
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
  unsigned fl = 0;
  CHECK(cudaGetDeviceFlags(&fl));
  EXPECT((fl & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync && (fl & cudaDeviceMapHost));
  EXPECT_ERR(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
  CHECK(cudaProfilerStart());
  add<<<1, 32>>>(d, 32, 1);
  CHECK(cudaProfilerStop());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  CHECK(cudaFree(r));
  if (bad) {
    printf("FAIL (%d)\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}

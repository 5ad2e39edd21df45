// runtime.cu: the runtime API a CUDA program uses, with the results a real
// GPU gives (strings from tests/data/h100_cuda13_truth.txt): cudaMalloc,
// cudaMemcpy of every kind, cudaMemset, cudaMallocHost, events, device count
// and selection, properties, error names and strings, failing calls.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

static int bad = 0;
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)
#define EXPECT(cond) do { if (!(cond)) { printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond); bad++; } } while (0)

__global__ void inc(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += i;
}

static void expect_err(cudaError_t e, const char *name, const char *str) {
  if (strcmp(cudaGetErrorName(e), name) != 0 || strcmp(cudaGetErrorString(e), str) != 0) {
    printf("error %d: name '%s' string '%s', want '%s' '%s'\n", (int)e, cudaGetErrorName(e),
           cudaGetErrorString(e), name, str);
    bad++;
  }
}

int main() {
  int count = -1, dev = -1;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT(count >= 1);
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  EXPECT(dev == 0);
  EXPECT(cudaSetDevice(5) == cudaErrorInvalidDevice);
  EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);   // the failure is recorded once
  EXPECT(cudaGetLastError() == cudaSuccess);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(prop.warpSize == 32);
  EXPECT(prop.maxThreadsPerBlock == 1024);
  EXPECT(prop.maxThreadsDim[0] == 1024 && prop.maxThreadsDim[1] == 1024 && prop.maxThreadsDim[2] == 64);
  EXPECT(prop.maxGridSize[0] == 2147483647 && prop.maxGridSize[1] == 65535 && prop.maxGridSize[2] == 65535);
  EXPECT(prop.sharedMemPerBlock == 49152);

  const int n = 1003;
  size_t bytes = n * sizeof(int);
  int *h = (int *)malloc(bytes), *pinned = NULL, *d1 = NULL, *d2 = NULL;
  CHECK(cudaMallocHost((void **)&pinned, bytes));
  CHECK(cudaMalloc((void **)&d1, bytes));
  CHECK(cudaMalloc(&d2, bytes));
  EXPECT(d1 != NULL && d2 != NULL && d1 != d2);
  for (int i = 0; i < n; i++) h[i] = 3 * i;
  CHECK(cudaMemcpy(d1, h, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d2, d1, bytes, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(pinned, d2, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(pinned[i] == 3 * i);
  CHECK(cudaMemcpy(h, pinned, bytes, cudaMemcpyHostToHost));
  CHECK(cudaMemset(d1, 0, bytes));
  CHECK(cudaMemset(d1 + 10, 0xAB, 5 * sizeof(int)));       // bytes, not ints
  CHECK(cudaMemcpy(pinned, d1, bytes, cudaMemcpyDefault));  // direction from the pointers
  for (int i = 0; i < n; i++)
    EXPECT(pinned[i] == (i >= 10 && i < 15 ? (int)0xABABABAB : 0));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaMemcpy(d2, h, bytes, cudaMemcpyDefault));
  CHECK(cudaEventRecord(start, 0));
  inc<<<(n + 255) / 256, 256>>>(d2, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0.0f);
  EXPECT(cudaEventQuery(stop) == cudaSuccess);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d2, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h[i] == 4 * i);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));

  // failing calls, with the codes an H100 gives
  void *p = NULL;
  EXPECT(cudaMalloc(&p, (size_t)1 << 50) == cudaErrorMemoryAllocation);
  EXPECT(cudaGetLastError() == cudaErrorMemoryAllocation);
  EXPECT(cudaGetLastError() == cudaSuccess);
  EXPECT(cudaFree(NULL) == cudaSuccess);
  EXPECT(cudaFree((void *)0x1234) == cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT(cudaMemcpy(h, d1, bytes, (cudaMemcpyKind)7) == cudaErrorInvalidMemcpyDirection);
  cudaGetLastError();

  expect_err(cudaSuccess, "cudaSuccess", "no error");
  expect_err(cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument");
  expect_err(cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory");
  expect_err(cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument");
  expect_err(cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal");
  expect_err(cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered");
  expect_err(cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure");
  expect_err(cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy");
  expect_err(cudaErrorNotReady, "cudaErrorNotReady", "device not ready");
  expect_err((cudaError_t)12345, "unrecognized error code", "unrecognized error code");
  EXPECT((int)cudaErrorInvalidValue == 1 && (int)cudaErrorInvalidDevice == 101 &&
         (int)cudaErrorLaunchFailure == 719 && (int)cudaErrorInvalidConfiguration == 9);

  CHECK(cudaFree(d1));
  CHECK(cudaFree(d2));
  CHECK(cudaFreeHost(pinned));
  free(h);
  printf("%d device(s), kernel took %.3f ms\n", count, ms);
  if (bad) { printf("%d checks failed\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

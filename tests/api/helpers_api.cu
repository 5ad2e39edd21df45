// helpers_api.cu: the API that the CUDA samples' helper headers
// (helper_cuda.h, helper_cuda_drvapi.h) rely on, used the way they use it:
// the guard macros they test, error names for every code, picking the
// fastest device from its attributes (compute mode, capability, SM count,
// clock), cores per SM from the capability, and the driver API's device
// queries and error names. Our own program.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

#if !defined(__DRIVER_TYPES_H__) || !defined(__CUDA_RUNTIME_H__) || !defined(__cuda_cuda_h__)
#error "the guard macros that helper headers test are missing"
#endif

static int bad = 0;
#define EXPECT(cond) do { if (!(cond)) { printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond); bad++; } } while (0)

static void expect_name(const char *name, const char *what, const char *want) {
  if (!name || strcmp(name, want)) {
    printf("%s: %s, want %s\n", what, name ? name : "(null)", want);
    bad++;
  }
}
static void check(cudaError_t r, const char *what, const char *want) { expect_name(cudaGetErrorName(r), what, want); }
static void check(CUresult r, const char *what, const char *want) {
  const char *name = NULL;
  cuGetErrorName(r, &name);
  expect_name(name, what, want);
}

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

static int cores_per_sm(int major, int minor) {   // our own table, for the test
  int v = (major << 4) + minor;
  return v >= 0x90 ? 128 : v >= 0x86 ? 128 : v >= 0x70 ? 64 : v == 0x60 ? 64 : v >= 0x50 ? 128 : 192;
}

int main() {
  // every code has a name and a string; an unknown code has CUDA's text
  for (int e = 0; e <= 1000; e++) {
    const char *n = cudaGetErrorName((cudaError_t)e), *s = cudaGetErrorString((cudaError_t)e);
    EXPECT(n && s);
    if (strcmp(n, "unrecognized error code")) EXPECT(!strncmp(n, "cuda", 4));
  }
  check(cudaErrorInvalidValue, "1", "cudaErrorInvalidValue");
  check(cudaErrorMemoryAllocation, "2", "cudaErrorMemoryAllocation");
  EXPECT(!strcmp(cudaGetErrorString((cudaError_t)12345), "unrecognized error code"));

  // the fastest device, as helper_cuda.h's gpuGetMaxGflopsDeviceId picks it
  int count = 0, best = -1;
  unsigned long long best_perf = 0;
  check(cudaGetDeviceCount(&count), "count", "cudaSuccess");
  EXPECT(count == 1);
  for (int d = 0; d < count; d++) {
    int mode = -1, major = 0, minor = 0, sms = 0, clock = 0, integrated = -1;
    check(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d), "mode", "cudaSuccess");
    check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d), "major", "cudaSuccess");
    check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d), "minor", "cudaSuccess");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d), "sms", "cudaSuccess");
    check(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d), "clock", "cudaSuccess");
    check(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, d), "integrated", "cudaSuccess");
    EXPECT(mode == cudaComputeModeDefault && mode != cudaComputeModeProhibited);
    EXPECT(major == 7 && minor == 5 && sms == 36 && clock > 0 && integrated == 0);
    unsigned long long perf = (unsigned long long)sms * cores_per_sm(major, minor) * clock;
    if (perf > best_perf) best_perf = perf, best = d;
  }
  EXPECT(best == 0);
  check(cudaSetDevice(best), "set", "cudaSuccess");
  check(cudaSetDevice(count), "set bad", "cudaErrorInvalidDevice");
  check(cudaGetLastError(), "last", "cudaErrorInvalidDevice");
  check(cudaDeviceGetAttribute(&count, (cudaDeviceAttr)9999, 0), "bad attr", "cudaErrorInvalidValue");
  check(cudaGetLastError(), "last", "cudaErrorInvalidValue");

  // getLastCudaError after a launch, and after a bad one
  int *d = NULL;
  check(cudaMalloc(&d, 64 * sizeof(int)), "malloc", "cudaSuccess");
  touch<<<1, 64>>>(d);
  check(cudaGetLastError(), "launch", "cudaSuccess");
  touch<<<1, 4096>>>(d);
  check(cudaGetLastError(), "bad launch", "cudaErrorInvalidValue");
  check(cudaDeviceSynchronize(), "sync", "cudaSuccess");

  // the driver API, as helper_cuda_drvapi.h uses it
  CUdevice dev = -1;
  check(cuDeviceGetCount(&count), "before cuInit", "CUDA_ERROR_NOT_INITIALIZED");
  check(cuInit(0), "cuInit", "CUDA_SUCCESS");
  check(cuDeviceGetCount(&count), "cuDeviceGetCount", "CUDA_SUCCESS");
  check(cuDeviceGet(&dev, 0), "cuDeviceGet", "CUDA_SUCCESS");
  check(cuDeviceGet(&dev, 3), "cuDeviceGet 3", "CUDA_ERROR_INVALID_DEVICE");
  char name[256] = "";
  check(cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName", "CUDA_SUCCESS");
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "props", "cudaSuccess");
  EXPECT(!strcmp(name, prop.name));
  int major = 0, mode = -1, drv = 0;
  check(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "attr", "CUDA_SUCCESS");
  check(cuDeviceGetAttribute(&mode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, dev), "mode", "CUDA_SUCCESS");
  EXPECT(major == prop.major && mode != CU_COMPUTEMODE_PROHIBITED);
  check(cuDriverGetVersion(&drv), "cuDriverGetVersion", "CUDA_SUCCESS");
  EXPECT(drv >= CUDA_VERSION);
  const char *s = NULL;
  check(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s), "string", "CUDA_SUCCESS");
  EXPECT(s && !strcmp(s, "invalid argument"));
  check(cuGetErrorName((CUresult)4242, &s), "unknown", "CUDA_ERROR_INVALID_VALUE");
  check(cuCtxSynchronize(), "cuCtxSynchronize", "CUDA_SUCCESS");
  cudaFree(d);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

/* device.c: the one device cucc presents. Until the device models of the
 * simulated-SM issue land, it is the lecture notes' deviceQuery GPU: an
 * RTX 2070 (compute capability 7.5, 36 SMs). Global memory is host memory. */
#include "rt.h"
#include <unistd.h>

struct cudaDeviceProp rt_prop;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
  struct cudaDeviceProp *p = &rt_prop;
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "cucc CPU device (NVIDIA GeForce RTX 2070 model)");
  long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
  p->totalGlobalMem = (size_t)pages * (size_t)ps;
  p->sharedMemPerBlock = 48 * 1024;
  p->sharedMemPerBlockOptin = 64 * 1024;
  p->sharedMemPerMultiprocessor = 64 * 1024;
  p->reservedSharedMemPerBlock = 0;
  p->regsPerBlock = 65536;
  p->regsPerMultiprocessor = 65536;
  p->warpSize = 32;
  p->memPitch = (size_t)2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->clockRate = 1620000;
  p->totalConstMem = 65536;
  p->major = 7;
  p->minor = 5;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->deviceOverlap = 1;
  p->multiProcessorCount = 36;
  p->canMapHostMemory = 1;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 3;
  p->unifiedAddressing = 1;
  p->memoryClockRate = 7001000;
  p->memoryBusWidth = 256;
  p->l2CacheSize = 4194304;
  p->maxThreadsPerMultiProcessor = 1024;
  p->maxBlocksPerMultiProcessor = 16;
  p->managedMemory = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->computePreemptionSupported = 1;
  p->cooperativeLaunch = 1;
  p->pageableMemoryAccess = 1;
  p->concurrentManagedAccess = 1;
  p->hostNativeAtomicSupported = 1;
  p->singleToDoublePrecisionPerfRatio = 32;
}

void rt_device_init(void) { pthread_once(&once, init); }

__attribute__((constructor)) static void early(void) { rt_device_init(); }

cudaError_t cudaGetDeviceCount(int *n) {
  if (!n) return rt_err(cudaErrorInvalidValue);
  *n = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : rt_err(cudaErrorInvalidDevice); }

cudaError_t cudaGetDevice(int *d) {
  if (!d) return rt_err(cudaErrorInvalidValue);
  *d = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int f) {
  (void)f;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d) {
  if (!p) return rt_err(cudaErrorInvalidValue);
  if (d != 0) return rt_err(cudaErrorInvalidDevice);
  rt_device_init();
  *p = rt_prop;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d) {
  if (!v) return rt_err(cudaErrorInvalidValue);
  if (d != 0) return rt_err(cudaErrorInvalidDevice);
  const struct cudaDeviceProp *p = &rt_prop;
  switch (a) {
  case cudaDevAttrMaxThreadsPerBlock: *v = p->maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: *v = p->maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: *v = p->maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: *v = p->maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: *v = p->maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: *v = p->maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: *v = p->maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p->sharedMemPerBlock; break;
  case cudaDevAttrTotalConstantMemory: *v = (int)p->totalConstMem; break;
  case cudaDevAttrWarpSize: *v = p->warpSize; break;
  case cudaDevAttrMaxPitch: *v = (int)p->memPitch; break;
  case cudaDevAttrMaxRegistersPerBlock: *v = p->regsPerBlock; break;
  case cudaDevAttrClockRate: *v = p->clockRate; break;
  case cudaDevAttrTextureAlignment: *v = (int)p->textureAlignment; break;
  case cudaDevAttrGpuOverlap: *v = p->deviceOverlap; break;
  case cudaDevAttrMultiProcessorCount: *v = p->multiProcessorCount; break;
  case cudaDevAttrKernelExecTimeout: *v = 0; break;
  case cudaDevAttrIntegrated: *v = 0; break;
  case cudaDevAttrCanMapHostMemory: *v = 1; break;
  case cudaDevAttrComputeMode: *v = 0; break;
  case cudaDevAttrConcurrentKernels: *v = 1; break;
  case cudaDevAttrEccEnabled: *v = 0; break;
  case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrTccDriver: *v = 0; break;
  case cudaDevAttrMemoryClockRate: *v = p->memoryClockRate; break;
  case cudaDevAttrGlobalMemoryBusWidth: *v = p->memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: *v = p->l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p->maxThreadsPerMultiProcessor; break;
  case cudaDevAttrAsyncEngineCount: *v = p->asyncEngineCount; break;
  case cudaDevAttrUnifiedAddressing: *v = 1; break;
  case cudaDevAttrComputeCapabilityMajor: *v = p->major; break;
  case cudaDevAttrComputeCapabilityMinor: *v = p->minor; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p->sharedMemPerMultiprocessor; break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p->regsPerMultiprocessor; break;
  case cudaDevAttrManagedMemory: *v = 1; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p->sharedMemPerBlockOptin; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p->maxBlocksPerMultiProcessor; break;
  default: return rt_err(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v) {
  if (!v) return rt_err(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *v) {
  if (!v) return rt_err(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* device.c: the one device cucc presents. Until the device models of the
 * simulated-SM issue land, it is the lecture notes' deviceQuery GPU: an
 * RTX 2070 (compute capability 7.5, 36 SMs). Global memory is host memory. */
#include "rt.h"
#include <unistd.h>

static struct cudaDeviceProp prop;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Every field from the model; memory is the host's. */
static void init(void) {
  const rt_model *m = rt_model_cur();
  struct cudaDeviceProp *p = &prop;
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s (cucc model of sm_%d)", m->gpu, m->sm);
  long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
  p->totalGlobalMem = (size_t)pages * (size_t)ps;
  p->sharedMemPerBlock = (size_t)m->smem_block;
  p->sharedMemPerBlockOptin = (size_t)m->smem_optin;
  p->sharedMemPerMultiprocessor = (size_t)m->smem_sm;
  p->reservedSharedMemPerBlock = (size_t)m->smem_reserved;
  p->regsPerBlock = m->regs_block;
  p->regsPerMultiprocessor = m->regs_sm;
  p->warpSize = 32;
  p->memPitch = (size_t)2147483647;
  p->maxThreadsPerBlock = m->threads_block;
  p->maxThreadsDim[0] = m->block_x;
  p->maxThreadsDim[1] = m->block_y;
  p->maxThreadsDim[2] = m->block_z;
  p->maxGridSize[0] = m->grid_x;
  p->maxGridSize[1] = m->grid_y;
  p->maxGridSize[2] = m->grid_z;
  p->clockRate = 1500000;
  p->totalConstMem = 65536;
  p->major = m->sm / 10;
  p->minor = m->sm % 10;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->deviceOverlap = 1;
  p->multiProcessorCount = m->sms;
  p->canMapHostMemory = 1;
  p->concurrentKernels = m->sm >= 20;
  p->asyncEngineCount = m->sm >= 20 ? 2 : 1;
  p->unifiedAddressing = m->sm >= 20;
  p->memoryClockRate = 5000000;
  p->memoryBusWidth = 256;
  p->l2CacheSize = m->sm >= 20 ? 4194304 : 0;
  p->maxThreadsPerMultiProcessor = m->threads_sm;
  p->maxBlocksPerMultiProcessor = m->blocks_sm;
  p->managedMemory = m->sm >= 30;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->computePreemptionSupported = m->sm >= 60;
  p->cooperativeLaunch = m->sm >= 60;
  p->concurrentManagedAccess = m->sm >= 60;
  p->streamPrioritiesSupported = m->sm >= 35;
  p->singleToDoublePrecisionPerfRatio = 32;
}

const struct cudaDeviceProp *rt_props(void) {
  pthread_once(&once, init);
  return &prop;
}

cudaError_t cudaGetDeviceCount(int *n) {
  RT_API();
  if (!n) return rt_err(cudaErrorInvalidValue);
  *n = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int d) { RT_API(); return d == 0 ? cudaSuccess : rt_err(cudaErrorInvalidDevice); }

cudaError_t cudaGetDevice(int *d) {
  RT_API();
  if (!d) return rt_err(cudaErrorInvalidValue);
  *d = 0;
  return cudaSuccess;
}

static unsigned dev_flags;

cudaError_t cudaSetDeviceFlags(unsigned int f) {
  RT_API();
  if (f & ~(unsigned)cudaDeviceMask) return rt_err(cudaErrorInvalidValue);
  dev_flags = f;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  if (d != 0) return rt_err(cudaErrorInvalidDevice);
  *p = *rt_props();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d) {
  RT_API();
  if (!v) return rt_err(cudaErrorInvalidValue);
  if (d != 0) return rt_err(cudaErrorInvalidDevice);
  const struct cudaDeviceProp *p = rt_props();
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
  case cudaDevAttrCooperativeLaunch: *v = p->cooperativeLaunch; break;
  case cudaDevAttrPciDomainId: case cudaDevAttrIsMultiGpuBoard: case cudaDevAttrMultiGpuBoardGroupID: *v = 0; break;
  case cudaDevAttrStreamPrioritiesSupported: *v = p->streamPrioritiesSupported; break;
  case cudaDevAttrGlobalL1CacheSupported: case cudaDevAttrLocalL1CacheSupported: *v = 1; break;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio: *v = p->singleToDoublePrecisionPerfRatio; break;
  case cudaDevAttrConcurrentManagedAccess: *v = p->concurrentManagedAccess; break;
  case cudaDevAttrComputePreemptionSupported: *v = p->computePreemptionSupported; break;
  /* the device is the host: its memory, atomics and page tables are the host's */
  case cudaDevAttrHostNativeAtomicSupported: case cudaDevAttrPageableMemoryAccess:
  case cudaDevAttrCanUseHostPointerForRegisteredMem: case cudaDevAttrHostRegisterSupported:
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables: case cudaDevAttrDirectManagedMemAccessFromHost:
    *v = 1;
    break;
  case cudaDevAttrCooperativeMultiDeviceLaunch: *v = 0; break;
  case cudaDevAttrMaxPersistingL2CacheSize: *v = p->persistingL2CacheMaxSize; break;
  case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)p->reservedSharedMemPerBlock; break;
  case cudaDevAttrMemoryPoolsSupported: *v = 1; break;
  case cudaDevAttrMemoryPoolSupportedHandleTypes: *v = 0; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p->sharedMemPerBlockOptin; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p->maxBlocksPerMultiProcessor; break;
  default: return rt_err(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v) {
  RT_API();
  if (!v) return rt_err(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *v) {
  RT_API();
  if (!v) return rt_err(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaProfilerStart(void) { RT_API(); return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { RT_API(); return cudaSuccess; }

cudaError_t cudaGetDeviceFlags(unsigned int *f) {
  RT_API();
  if (!f) return rt_err(cudaErrorInvalidValue);
  *f = dev_flags | cudaDeviceMapHost;   /* mapping host memory is always on */
  return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *p) {
  RT_API();
  if (!d || !p) return rt_err(cudaErrorInvalidValue);
  *d = 0;
  return cudaSuccess;
}

/* ---- limits: recorded and reported; the CPU needs none of them ---- */
static size_t limits[] = {
  [cudaLimitStackSize] = 1024, [cudaLimitPrintfFifoSize] = 1 << 20, [cudaLimitMallocHeapSize] = 8 << 20,
  [cudaLimitDevRuntimeSyncDepth] = 1024, [cudaLimitDevRuntimePendingLaunchCount] = 2048,
  [cudaLimitMaxL2FetchGranularity] = 64, [cudaLimitPersistingL2CacheSize] = 0,
};
static pthread_mutex_t limit_mu = PTHREAD_MUTEX_INITIALIZER;

cudaError_t cudaDeviceSetLimit(enum cudaLimit l, size_t v) {
  RT_API();
  if ((unsigned)l >= sizeof limits / sizeof *limits) return rt_err(cudaErrorInvalidValue);   /* as an H100 */
  if (l == cudaLimitMaxL2FetchGranularity && (v > 128 || (v & (v - 1)))) return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&limit_mu);
  limits[l] = v;
  pthread_mutex_unlock(&limit_mu);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *v, enum cudaLimit l) {
  RT_API();
  if (!v) return rt_err(cudaErrorInvalidValue);
  if ((unsigned)l >= sizeof limits / sizeof *limits) return rt_err(cudaErrorUnsupportedLimit);
  pthread_mutex_lock(&limit_mu);
  *v = limits[l];
  pthread_mutex_unlock(&limit_mu);
  return cudaSuccess;
}

/* ---- peers: there is one device, and a device is not its own peer ---- */
cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer) {
  RT_API();
  if (!can) return rt_err(cudaErrorInvalidValue);
  if (d != 0 || peer != 0) return rt_err(cudaErrorInvalidDevice);
  *can = 0;
  return cudaSuccess;
}

/* peer 0 is the current device itself (unsupported, as an H100 says), any
 * other is no device */
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) {
  RT_API();
  if (flags) return rt_err(cudaErrorInvalidValue);
  return rt_err(peer == 0 ? cudaErrorPeerAccessUnsupported : cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceDisablePeerAccess(int peer) {
  RT_API();
  return rt_err(peer == 0 ? cudaErrorPeerAccessNotEnabled : cudaErrorInvalidDevice);
}

/* ---- cache and bank preferences: recorded, without effect on a CPU ---- */
static enum cudaFuncCache cache_cfg;
static enum cudaSharedMemConfig bank_cfg;

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c) {
  RT_API();
  if ((unsigned)c > cudaFuncCachePreferEqual) return rt_err(cudaErrorInvalidValue);
  cache_cfg = c;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c) {
  RT_API();
  if (!c) return rt_err(cudaErrorInvalidValue);
  *c = cache_cfg;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c) {
  RT_API();
  if ((unsigned)c > cudaSharedMemBankSizeEightByte) return rt_err(cudaErrorInvalidValue);
  bank_cfg = c;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *c) {
  RT_API();
  if (!c) return rt_err(cudaErrorInvalidValue);
  *c = bank_cfg;
  return cudaSuccess;
}

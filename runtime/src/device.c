/* device.c: the devices cucc presents. CUCC_DEVICES=n (default 1) makes n
 * of them, each with its own model (CUCC_DEVICE=sm_XX,sm_YY,...: one spec
 * per device, the last repeated; by default the -arch the program was built
 * for), its share of the host's memory, its peers, flags and sticky error.
 * Their memory is all the host's, so every device can reach every other's
 * (peer access, unified addressing); each host thread has its own current
 * device, as in CUDA. */
#include "rt.h"
#include <stdatomic.h>
#include <unistd.h>

static rt_dev devs[RT_MAXDEV];
static int ndev;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Thread_local rt_dev *cur;


/* Texture and surface limits by generation (the CUDA C Programming Guide's
 * technical specifications; the notes' RTX 2070 deviceQuery shows 6.0's):
 * 1D, 1D mipmapped, 1D linear, 2D, 2D mipmapped, 2D linear (w, h, pitch),
 * 2D gather, 3D, 3D alternate, cubemap, 1D layered (w, layers), 2D layered,
 * cubemap layered; surfaces 1D, 2D, 3D, 1D layered, 2D layered, cubemap,
 * cubemap layered. 1.x has no surfaces, cubemaps or mipmaps. */
typedef struct Tex {
  int sm, t1, t1m, t1l, t2[2], t2m[2], t2l[3], t2g[2], t3[3], t3a[3], tc, tl1[2], tl2[3], tcl[2];
  int s1, s2[2], s3[3], sl1[2], sl2[3], sc, scl[2];
} Tex;
static const Tex texs[] = {
  {10, 8192, 0, 1 << 27, {65536, 32768}, {0, 0}, {65000, 65000, 1048544}, {0, 0}, {2048, 2048, 2048}, {0, 0, 0},
   0, {8192, 512}, {8192, 8192, 512}, {0, 0}, 0, {0, 0}, {0, 0, 0}, {0, 0}, {0, 0, 0}, 0, {0, 0}},
  {20, 65536, 16384, 1 << 27, {65536, 65535}, {16384, 16384}, {65000, 65000, 1048544}, {16384, 16384},
   {2048, 2048, 2048}, {0, 0, 0}, 16384, {16384, 2048}, {16384, 16384, 2048}, {16384, 2046}, 65536,
   {65536, 32768}, {65536, 32768, 2048}, {65536, 2048}, {65536, 32768, 2048}, 32768, {32768, 2046}},
  {30, 65536, 16384, 1 << 27, {65536, 65536}, {16384, 16384}, {65000, 65000, 1048544}, {16384, 16384},
   {4096, 4096, 4096}, {2048, 2048, 16384}, 16384, {16384, 2048}, {16384, 16384, 2048}, {16384, 2046}, 65536,
   {65536, 32768}, {65536, 32768, 2048}, {65536, 2048}, {65536, 32768, 2048}, 32768, {32768, 2046}},
  {50, 65536, 16384, 1 << 27, {65536, 65536}, {16384, 16384}, {65536, 65536, 1048544}, {16384, 16384},
   {4096, 4096, 4096}, {2048, 2048, 16384}, 16384, {16384, 2048}, {16384, 16384, 2048}, {16384, 2046}, 16384,
   {65536, 65536}, {4096, 4096, 4096}, {16384, 2048}, {16384, 16384, 2048}, 16384, {16384, 2046}},
  {60, 131072, 32768, 1 << 28, {131072, 65536}, {32768, 32768}, {131072, 65000, 2097120}, {32768, 32768},
   {16384, 16384, 16384}, {8192, 8192, 32768}, 32768, {32768, 2048}, {32768, 32768, 2048}, {32768, 2046}, 32768,
   {131072, 65536}, {16384, 16384, 16384}, {32768, 2048}, {32768, 32768, 2048}, 32768, {32768, 2046}},
};

/* What the board of a model's GPU reports where the notes or a real one
 * show it (clocks in kHz); other models keep round values: cucc does not
 * model clocks or memory, which are this machine's. */
typedef struct Board { int sm, clock, mem_clock, bus, l2, engines, ecc; } Board;
static const Board boards[] = {
  {75, 1710000, 7001000, 256, 4194304, 3, 0},    /* the notes' RTX 2070 deviceQuery */
  {90, 1980000, 2619000, 5120, 52428800, 3, 1},  /* H100 SXM5 80GB HBM3 */
};

static void set_tex(struct cudaDeviceProp *p, int sm) {
  const Tex *t = &texs[0];
  for (size_t i = 0; i < sizeof texs / sizeof *texs; i++)
    if (texs[i].sm <= sm) t = &texs[i];
#define CP(d, s) memcpy(d, s, sizeof d)
  p->maxTexture1D = t->t1;
  p->maxTexture1DMipmap = t->t1m;
  p->maxTexture1DLinear = t->t1l;
  CP(p->maxTexture2D, t->t2);
  CP(p->maxTexture2DMipmap, t->t2m);
  CP(p->maxTexture2DLinear, t->t2l);
  CP(p->maxTexture2DGather, t->t2g);
  CP(p->maxTexture3D, t->t3);
  CP(p->maxTexture3DAlt, t->t3a);
  p->maxTextureCubemap = t->tc;
  CP(p->maxTexture1DLayered, t->tl1);
  CP(p->maxTexture2DLayered, t->tl2);
  CP(p->maxTextureCubemapLayered, t->tcl);
  p->maxSurface1D = t->s1;
  CP(p->maxSurface2D, t->s2);
  CP(p->maxSurface3D, t->s3);
  CP(p->maxSurface1DLayered, t->sl1);
  CP(p->maxSurface2DLayered, t->sl2);
  p->maxSurfaceCubemap = t->sc;
  CP(p->maxSurfaceCubemapLayered, t->scl);
#undef CP
  p->surfaceAlignment = sm >= 20 ? 512 : 0;
}

/* Every field from the model; memory is the device's share of the host's. */
static void props(rt_dev *d) {
  const rt_model *m = &d->model;
  struct cudaDeviceProp *p = &d->prop;
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s (cucc model of sm_%d)", m->gpu, m->sm);
  p->totalGlobalMem = d->total;
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
  p->deviceOverlap = m->sm >= 11;   /* 1.0 could not copy while a kernel ran */
  p->multiProcessorCount = m->sms;
  p->canMapHostMemory = 1;
  p->concurrentKernels = m->sm >= 20;
  p->asyncEngineCount = m->sm >= 20 ? 2 : m->sm >= 11;
  p->unifiedAddressing = m->sm >= 20;
  p->ipcEventSupported = p->unifiedAddressing;   /* CUDA IPC (ipc.c) */
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
  for (size_t i = 0; i < sizeof boards / sizeof *boards; i++)
    if (boards[i].sm == m->sm) {
      p->clockRate = boards[i].clock;
      p->memoryClockRate = boards[i].mem_clock;
      p->memoryBusWidth = boards[i].bus;
      p->l2CacheSize = boards[i].l2;
      p->asyncEngineCount = boards[i].engines;
      p->ECCEnabled = boards[i].ecc;
    }
  set_tex(p, m->sm);
  /* what cucc's runtime does: host memory registers (read-only too),
   * memory pools (cudaMallocAsync); no IPC, clusters, RDMA or MPS */
  p->hostRegisterSupported = 1;
  p->hostRegisterReadOnlySupported = 1;
  p->memoryPoolsSupported = 1;
  p->pageableMemoryAccess = 1;
  p->pageableMemoryAccessUsesHostPageTables = 1;
  p->directManagedMemAccessFromHost = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->hostNativeAtomicSupported = 1;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
  /* one board per device, on a bus of its own */
  p->pciBusID = d->id;
  p->uuid.bytes[0] = 'c';
  p->uuid.bytes[1] = 'u';
  p->uuid.bytes[15] = (char)d->id;
  /* access policy windows and persisting L2 lines (recorded: stream.c) */
  p->accessPolicyMaxWindowSize = m->sm >= 80 ? 134213632 : 0;
  p->persistingL2CacheMaxSize = m->sm >= 80 ? 3145728 : 0;
}

/* CUCC_DEVICE's specs, one per device: a spec's own fields are
 * comma-separated too, so a new spec is a comma followed by "sm_".
 * Cuts a copy of env in place; returns how many (at most max). */
static int split(char *env, char **specs, int max) {
  int n = 0;
  if (!env || !*env) return 0;
  specs[n++] = env;
  for (char *p = env; *p && n < max; p++)
    if (*p == ',' && !strncmp(p + 1, "sm_", 3)) {
      *p = 0;
      specs[n++] = p + 1;
    }
  return n;
}

static void init(void) {
  const char *nenv = getenv("CUCC_DEVICES");
  char *env = getenv("CUCC_DEVICE") ? strdup(getenv("CUCC_DEVICE")) : NULL, *specs[RT_MAXDEV];
  int nspecs = split(env, specs, RT_MAXDEV);
  ndev = nspecs > 1 ? nspecs : 1;   /* CUCC_DEVICE=sm_90,sm_80 alone: two devices */
  if (nenv && *nenv) {
    char *end;
    long n = strtol(nenv, &end, 10);
    if (*end || n < 1 || n > RT_MAXDEV)
      fprintf(stderr, "cucc: CUCC_DEVICES='%s' is not a number of devices from 1 to %d; using %d\n", nenv, RT_MAXDEV,
              ndev);
    else ndev = (int)n;
  }
  if (nspecs > ndev)
    fprintf(stderr, "cucc: CUCC_DEVICE names %d devices, CUCC_DEVICES=%d: the last %d are not used\n", nspecs, ndev,
            nspecs - ndev);
  long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
  size_t host = (size_t)pages * (size_t)ps;
  for (int i = 0; i < ndev; i++) {
    rt_dev *d = &devs[i];
    d->id = i;
    rt_model_parse(nspecs ? specs[i < nspecs ? i : nspecs - 1] : NULL, rt_model_default(), &d->model);
    d->total = d->model.mem > 0 ? (size_t)d->model.mem << 20 : host / (size_t)ndev;
    pthread_mutex_init(&d->launch_mu, NULL);
    props(d);
  }
  free(env);
}

int rt_ndev(void) {
  pthread_once(&once, init);
  return ndev;
}

rt_dev *rt_dev_at(int d) { return d >= 0 && d < rt_ndev() ? &devs[d] : NULL; }

rt_dev *rt_cur(void) {
  if (!cur) {
    pthread_once(&once, init);
    cur = &devs[0];
  }
  return cur;
}

void rt_set_cur(rt_dev *d) { cur = d; }

const struct cudaDeviceProp *rt_props(void) { return &rt_cur()->prop; }

/* The device whose blocks this thread runs (a worker moves between
 * devices' grids; its current device is the API's, not the kernel's). */
static _Thread_local int run_dev;

void rt_dev_enter(int dev) {
  run_dev = dev;
  rt_ck_enter(dev);
}

int rt_run_dev(void) { return run_dev; }

/* %nsmid of inline PTX (cucc_dev.h): the SMs of the kernel's device */
int cu_ptx_nsmid(void) { return rt_dev_at(run_dev)->model.sms; }

cudaError_t cudaGetDeviceCount(int *n) {
  RT_API();
  if (!n) return rt_err(cudaErrorInvalidValue);
  *n = rt_ndev();
  return cudaSuccess;
}

/* Any host thread may make any device its current one, at any time. */
cudaError_t cudaSetDevice(int d) {
  RT_API();
  rt_dev *v = rt_dev_at(d);
  if (!v) return rt_err(cudaErrorInvalidDevice);
  cur = v;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *d) {
  RT_API();
  if (!d) return rt_err(cudaErrorInvalidValue);
  *d = rt_cur()->id;
  return cudaSuccess;
}

/* the flags of the current device */
cudaError_t cudaSetDeviceFlags(unsigned int f) {
  RT_API();
  if (f & ~(unsigned)cudaDeviceMask) return rt_err(cudaErrorInvalidValue);
  atomic_store(&rt_cur()->flags, f);
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  rt_dev *v = rt_dev_at(d);
  if (!v) return rt_err(cudaErrorInvalidDevice);
  *p = v->prop;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d) {
  RT_API();
  if (!v) return rt_err(cudaErrorInvalidValue);
  rt_dev *dv = rt_dev_at(d);
  if (!dv) return rt_err(cudaErrorInvalidDevice);
  const struct cudaDeviceProp *p = &dv->prop;
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
  case cudaDevAttrEccEnabled: *v = p->ECCEnabled; break;
  case cudaDevAttrPciBusId: *v = p->pciBusID; break;
  case cudaDevAttrPciDeviceId: case cudaDevAttrTccDriver: *v = 0; break;
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
  case cudaDevAttrMaxTexture1DWidth: *v = p->maxTexture1D; break;
  case cudaDevAttrMaxTexture2DWidth: *v = p->maxTexture2D[0]; break;
  case cudaDevAttrMaxTexture2DHeight: *v = p->maxTexture2D[1]; break;
  case cudaDevAttrMaxTexture3DWidth: *v = p->maxTexture3D[0]; break;
  case cudaDevAttrMaxTexture3DHeight: *v = p->maxTexture3D[1]; break;
  case cudaDevAttrMaxTexture3DDepth: *v = p->maxTexture3D[2]; break;
  case cudaDevAttrMaxTexture2DLayeredWidth: *v = p->maxTexture2DLayered[0]; break;
  case cudaDevAttrMaxTexture2DLayeredHeight: *v = p->maxTexture2DLayered[1]; break;
  case cudaDevAttrMaxTexture2DLayeredLayers: *v = p->maxTexture2DLayered[2]; break;
  case cudaDevAttrSurfaceAlignment: *v = (int)p->surfaceAlignment; break;
  case cudaDevAttrMaxTexture1DLayeredWidth: *v = p->maxTexture1DLayered[0]; break;
  case cudaDevAttrMaxTexture1DLayeredLayers: *v = p->maxTexture1DLayered[1]; break;
  case cudaDevAttrMaxTexture2DGatherWidth: *v = p->maxTexture2DGather[0]; break;
  case cudaDevAttrMaxTexture2DGatherHeight: *v = p->maxTexture2DGather[1]; break;
  case cudaDevAttrMaxTexture3DWidthAlt: *v = p->maxTexture3DAlt[0]; break;
  case cudaDevAttrMaxTexture3DHeightAlt: *v = p->maxTexture3DAlt[1]; break;
  case cudaDevAttrMaxTexture3DDepthAlt: *v = p->maxTexture3DAlt[2]; break;
  case cudaDevAttrTexturePitchAlignment: *v = (int)p->texturePitchAlignment; break;
  case cudaDevAttrMaxTextureCubemapWidth: *v = p->maxTextureCubemap; break;
  case cudaDevAttrMaxTextureCubemapLayeredWidth: *v = p->maxTextureCubemapLayered[0]; break;
  case cudaDevAttrMaxTextureCubemapLayeredLayers: *v = p->maxTextureCubemapLayered[1]; break;
  case cudaDevAttrMaxSurface1DWidth: *v = p->maxSurface1D; break;
  case cudaDevAttrMaxSurface2DWidth: *v = p->maxSurface2D[0]; break;
  case cudaDevAttrMaxSurface2DHeight: *v = p->maxSurface2D[1]; break;
  case cudaDevAttrMaxSurface3DWidth: *v = p->maxSurface3D[0]; break;
  case cudaDevAttrMaxSurface3DHeight: *v = p->maxSurface3D[1]; break;
  case cudaDevAttrMaxSurface3DDepth: *v = p->maxSurface3D[2]; break;
  case cudaDevAttrMaxSurface1DLayeredWidth: *v = p->maxSurface1DLayered[0]; break;
  case cudaDevAttrMaxSurface1DLayeredLayers: *v = p->maxSurface1DLayered[1]; break;
  case cudaDevAttrMaxSurface2DLayeredWidth: *v = p->maxSurface2DLayered[0]; break;
  case cudaDevAttrMaxSurface2DLayeredHeight: *v = p->maxSurface2DLayered[1]; break;
  case cudaDevAttrMaxSurface2DLayeredLayers: *v = p->maxSurface2DLayered[2]; break;
  case cudaDevAttrMaxSurfaceCubemapWidth: *v = p->maxSurfaceCubemap; break;
  case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *v = p->maxSurfaceCubemapLayered[0]; break;
  case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *v = p->maxSurfaceCubemapLayered[1]; break;
  case cudaDevAttrMaxTexture1DLinearWidth: *v = p->maxTexture1DLinear; break;
  case cudaDevAttrMaxTexture2DLinearWidth: *v = p->maxTexture2DLinear[0]; break;
  case cudaDevAttrMaxTexture2DLinearHeight: *v = p->maxTexture2DLinear[1]; break;
  case cudaDevAttrMaxTexture2DLinearPitch: *v = p->maxTexture2DLinear[2]; break;
  case cudaDevAttrMaxTexture2DMipmappedWidth: *v = p->maxTexture2DMipmap[0]; break;
  case cudaDevAttrMaxTexture2DMipmappedHeight: *v = p->maxTexture2DMipmap[1]; break;
  case cudaDevAttrMaxTexture1DMipmappedWidth: *v = p->maxTexture1DMipmap; break;
  case cudaDevAttrHostRegisterReadOnlySupported: *v = p->hostRegisterReadOnlySupported; break;
  case cudaDevAttrClusterLaunch: *v = p->clusterLaunch; break;
  case cudaDevAttrMaxAccessPolicyWindowSize: *v = p->accessPolicyMaxWindowSize; break;
  case cudaDevAttrIpcEventSupport: *v = p->ipcEventSupported; break;
  case cudaDevAttrSparseCudaArraySupported:
  case cudaDevAttrTimelineSemaphoreInteropSupported: case cudaDevAttrGPUDirectRDMASupported:
  case cudaDevAttrGPUDirectRDMAFlushWritesOptions: case cudaDevAttrGPUDirectRDMAWritesOrdering:
  case cudaDevAttrDeferredMappingCudaArraySupported: case cudaDevAttrCanFlushRemoteWrites:
  case cudaDevAttrMpsEnabled: case cudaDevAttrNumaConfig: case cudaDevAttrOnlyPartialHostNativeAtomicSupported:
    *v = 0;
    break;
  case cudaDevAttrNumaId: case cudaDevAttrHostNumaId: *v = -1; break;
  case cudaDevAttrMemSyncDomainCount: *v = 1; break;
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
  *f = atomic_load(&rt_cur()->flags) | cudaDeviceMapHost;   /* mapping host memory is always on */
  return cudaSuccess;
}

/* The device whose compute capability is nearest the one asked for (a
 * zeroed cudaDeviceProp asks for none: device 0). */
cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *p) {
  RT_API();
  if (!d || !p) return rt_err(cudaErrorInvalidValue);
  int want = p->major * 10 + p->minor, best = 0;
  for (int i = 1; want && i < rt_ndev(); i++)
    if (abs(devs[i].model.sm - want) < abs(devs[best].model.sm - want)) best = i;
  *d = best;
  return cudaSuccess;
}

/* ---- limits: recorded and reported per device; the CPU needs none ---- */
enum { NLIMITS = cudaLimitPersistingL2CacheSize + 1 };
static const size_t limit0[NLIMITS] = {
  [cudaLimitStackSize] = 1024, [cudaLimitPrintfFifoSize] = 8650752, [cudaLimitMallocHeapSize] = 8 << 20,
  [cudaLimitDevRuntimeSyncDepth] = 1024, [cudaLimitDevRuntimePendingLaunchCount] = 2048,
  [cudaLimitMaxL2FetchGranularity] = 64, [cudaLimitPersistingL2CacheSize] = 0,
};
static size_t limits[RT_MAXDEV][NLIMITS];
static bool limit_set[RT_MAXDEV][NLIMITS];
static pthread_mutex_t limit_mu = PTHREAD_MUTEX_INITIALIZER;

cudaError_t cudaDeviceSetLimit(enum cudaLimit l, size_t v) {
  RT_API();
  if ((unsigned)l >= NLIMITS) return rt_err(cudaErrorInvalidValue);   /* as an H100 */
  if (l == cudaLimitMaxL2FetchGranularity && (v > 128 || (v & (v - 1)))) return rt_err(cudaErrorInvalidValue);
  int d = rt_cur()->id;
  /* printf's buffer, as an H100: at least 512 KB, whole 128 bytes, fixed
   * once a kernel has printed (tests/warp/gpu_behaviour.cu) */
  if (l == cudaLimitPrintfFifoSize) {
    if (rt_printf_used(d)) return rt_err(cudaErrorInvalidValue);
    v = v < (512u << 10) ? 512u << 10 : (v + 127) / 128 * 128;
  }
  pthread_mutex_lock(&limit_mu);
  limits[d][l] = v;
  limit_set[d][l] = true;
  pthread_mutex_unlock(&limit_mu);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *v, enum cudaLimit l) {
  RT_API();
  if (!v) return rt_err(cudaErrorInvalidValue);
  if ((unsigned)l >= NLIMITS) return rt_err(cudaErrorUnsupportedLimit);
  int d = rt_cur()->id;
  pthread_mutex_lock(&limit_mu);
  *v = limit_set[d][l] ? limits[d][l] : limit0[l];
  pthread_mutex_unlock(&limit_mu);
  return cudaSuccess;
}

size_t rt_printf_limit(int d) {
  pthread_mutex_lock(&limit_mu);
  size_t v = limit_set[d][cudaLimitPrintfFifoSize] ? limits[d][cudaLimitPrintfFifoSize] : limit0[cudaLimitPrintfFifoSize];
  pthread_mutex_unlock(&limit_mu);
  return v;
}

/* read by device code's malloc, so no RT_API: not an API call of its own */
size_t rt_heap_limit(void) {
  int d = rt_cur()->id;
  pthread_mutex_lock(&limit_mu);
  size_t v = limit_set[d][cudaLimitMallocHeapSize] ? limits[d][cudaLimitMallocHeapSize] : limit0[cudaLimitMallocHeapSize];
  pthread_mutex_unlock(&limit_mu);
  return v;
}

/* ---- peers: every device's memory is the host's, so each device can
 * reach every other's; a device is not its own peer. Access is recorded
 * (cucc --check reports a kernel that reads a device's memory without it,
 * which a GPU would fault on). ---- */
cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer) {
  RT_API();
  if (!can) return rt_err(cudaErrorInvalidValue);
  if (!rt_dev_at(d) || !rt_dev_at(peer)) return rt_err(cudaErrorInvalidDevice);
  *can = d != peer;
  return cudaSuccess;
}

/* the current device itself: unsupported, as an H100 says */
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) {
  RT_API();
  rt_dev *d = rt_cur();
  if (flags) return rt_err(cudaErrorInvalidValue);
  if (!rt_dev_at(peer)) return rt_err(cudaErrorInvalidDevice);
  if (peer == d->id) return rt_err(cudaErrorPeerAccessUnsupported);
  unsigned long long bit = 1ull << peer;
  if (atomic_fetch_or(&d->peers, bit) & bit) return rt_err(cudaErrorPeerAccessAlreadyEnabled);
  return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer) {
  RT_API();
  rt_dev *d = rt_cur();
  if (!rt_dev_at(peer)) return rt_err(cudaErrorInvalidDevice);
  unsigned long long bit = 1ull << peer;
  if (peer == d->id || !(atomic_fetch_and(&d->peers, ~bit) & bit)) return rt_err(cudaErrorPeerAccessNotEnabled);
  return cudaSuccess;
}

/* What CUDA reports between two devices: every peer link alike. */
cudaError_t cudaDeviceGetP2PAttribute(int *v, enum cudaDeviceP2PAttr a, int d, int peer) {
  RT_API();
  if (!v) return rt_err(cudaErrorInvalidValue);
  if (!rt_dev_at(d) || !rt_dev_at(peer) || d == peer) return rt_err(cudaErrorInvalidDevice);
  switch (a) {
  case cudaDevP2PAttrPerformanceRank: case cudaDevP2PAttrOnlyPartialNativeAtomicSupported: *v = 0; break;
  case cudaDevP2PAttrAccessSupported: case cudaDevP2PAttrNativeAtomicSupported:
  case cudaDevP2PAttrCudaArrayAccessSupported:
    *v = 1;
    break;
  default: return rt_err(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

/* The current device as new: its memory freed, its settings forgotten
 * (the other devices' work may use its memory: everything drains first). */
cudaError_t cudaDeviceReset(void) {
  RT_API();
  rt_dev *d = rt_cur();
  rt_sync_all();
  rt_mem_reset(d);
  rt_dev_reset(d);
  return cudaSuccess;
}

/* Forgets what the program set on d. */
void rt_dev_reset(rt_dev *d) {
  atomic_store(&d->peers, 0);
  atomic_store(&d->flags, 0);
  atomic_store(&d->sticky, 0);
  atomic_store(&d->sticky_told, 0);
  d->pool = NULL;
  pthread_mutex_lock(&limit_mu);
  memset(limit_set[d->id], 0, sizeof limit_set[d->id]);
  pthread_mutex_unlock(&limit_mu);
}

/* Persisting L2 lines: a CPU's caches take no such hints. */
cudaError_t cudaCtxResetPersistingL2Cache(void) { return cudaSuccess; }

/* ---- cache and bank preferences: recorded, without effect on a CPU ---- */
static _Atomic int cache_cfg[RT_MAXDEV], bank_cfg[RT_MAXDEV];

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c) {
  RT_API();
  if ((unsigned)c > cudaFuncCachePreferEqual) return rt_err(cudaErrorInvalidValue);
  cache_cfg[rt_cur()->id] = c;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c) {
  RT_API();
  if (!c) return rt_err(cudaErrorInvalidValue);
  *c = (enum cudaFuncCache)cache_cfg[rt_cur()->id];
  return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c) {
  RT_API();
  if ((unsigned)c > cudaSharedMemBankSizeEightByte) return rt_err(cudaErrorInvalidValue);
  bank_cfg[rt_cur()->id] = c;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *c) {
  RT_API();
  if (!c) return rt_err(cudaErrorInvalidValue);
  *c = (enum cudaSharedMemConfig)bank_cfg[rt_cur()->id];
  return cudaSuccess;
}

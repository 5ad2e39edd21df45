/* launch.c: kernel registry, launch configuration and launches.
 * Host stubs and device descriptors register from constructors of their
 * objects in any order; they are joined by name at the first launch. */
#include "rt.h"
#include <stdatomic.h>

typedef struct Stub { const void *stub; const char *name; const cu_kernel *k; } Stub;

static const cu_kernel **kernels;
static unsigned nkernels, capk;
static Stub *stubs;
static unsigned nstubs, caps;
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t launch_mu = PTHREAD_MUTEX_INITIALIZER;

void cu_register_kernels(const cu_kernel *const *ks, unsigned n) {
  pthread_mutex_lock(&reg_mu);
  for (unsigned i = 0; i < n; i++) {
    if (nkernels == capk) {
      capk = capk ? capk * 2 : 64;
      kernels = realloc(kernels, capk * sizeof *kernels);
    }
    kernels[nkernels++] = ks[i];
  }
  pthread_mutex_unlock(&reg_mu);
}

void cu_register_stub(const void *stub, const char *name) {
  pthread_mutex_lock(&reg_mu);
  if (nstubs == caps) {
    caps = caps ? caps * 2 : 64;
    stubs = realloc(stubs, caps * sizeof *stubs);
  }
  stubs[nstubs++] = (Stub){stub, name, NULL};
  pthread_mutex_unlock(&reg_mu);
}

static const cu_kernel *find(const void *stub) {
  const cu_kernel *k = NULL;
  pthread_mutex_lock(&reg_mu);
  for (unsigned i = 0; i < nstubs && !k; i++) {
    if (stubs[i].stub != stub) continue;
    if (!stubs[i].k)
      for (unsigned j = 0; j < nkernels; j++)
        if (!strcmp(kernels[j]->name, stubs[i].name)) stubs[i].k = kernels[j];
    k = stubs[i].k;
  }
  pthread_mutex_unlock(&reg_mu);
  return k;
}

/* ---- configurations pushed by <<<...>>> ---- */
typedef struct Cfg { cu_idx3 g, b; size_t smem; void *stream; } Cfg;
static _Thread_local Cfg cfgs[16];
static _Thread_local int ncfg;

int __cucc_push_config(cu_idx3 g, cu_idx3 b, size_t smem, void *stream) {
  if (ncfg == 16) return 1;
  cfgs[ncfg++] = (Cfg){g, b, smem, stream};
  return 0;
}

/* ---- running a grid ---- */
typedef struct Launch {
  const cu_kernel *k;
  cu_idx3 g, b;
  size_t smem;
  const char *params;
  unsigned nthreads, nwarps;
  size_t smem_bytes, lane_bytes;
  _Atomic int failed;
  _Atomic int reports;
} Launch;

/* per-worker buffers for shared memory and per-thread storage */
typedef struct WBuf { char *smem, *lanes; size_t nsmem, nlanes; } WBuf;
static WBuf *wbufs;
static int nwbufs;

static char *grow(char **p, size_t *have, size_t want) {
  if (want > *have) {
    free(*p);
    if (posix_memalign((void **)p, 64, want ? want : 64)) *p = NULL;
    *have = *p ? want : 0;
  }
  return *p;
}

static void run_block(unsigned long long i, int w, void *arg) {
  Launch *L = arg;
  if (atomic_load(&L->failed)) return;   /* a faulted kernel stops, as on a GPU */
  cu_block B;
  B.blockIdx.x = (unsigned)(i % L->g.x);
  B.blockIdx.y = (unsigned)((i / L->g.x) % L->g.y);
  B.blockIdx.z = (unsigned)(i / ((unsigned long long)L->g.x * L->g.y));
  B.blockDim = L->b;
  B.gridDim = L->g;
  B.nthreads = L->nthreads;
  B.nwarps = L->nwarps;
  B.smem = wbufs[w].smem;
  B.dyn_smem = L->smem;
  B.lanes = wbufs[w].lanes;
  B.kernel = L->k;
  B.launch = (struct cu_launch *)L;
  L->k->fn(&B, L->params);
}

void cu_fault(const cu_block *B, unsigned tid, const char *file, int line, const char *msg) {
  Launch *L = (Launch *)B->launch;
  atomic_store(&L->failed, 1);
  rt_set_sticky(cudaErrorLaunchFailure);
  if (atomic_fetch_add(&L->reports, 1) >= 8) return;
  unsigned dx = B->blockDim.x, dy = B->blockDim.y;
  fprintf(stderr, "cucc: kernel '%s' block (%u,%u,%u) thread (%u,%u,%u) at %s:%d: %s\n",
          B->kernel->pretty, B->blockIdx.x, B->blockIdx.y, B->blockIdx.z, tid % dx, (tid / dx) % dy,
          tid / (dx * dy), file, line, msg);
}

static cudaError_t launch(const cu_kernel *k, cu_idx3 g, cu_idx3 b, size_t smem, void **args) {
  /* the limits of every GPU since Kepler; a real H100 answers
   * cudaErrorInvalidValue to each violation (tests/data) */
  unsigned long long nt = (unsigned long long)b.x * b.y * b.z;
  if (!b.x || !b.y || !b.z || b.x > 1024 || b.y > 1024 || b.z > 64 || nt > 1024)
    return rt_err(cudaErrorInvalidValue);
  if (k->max_threads && nt > (unsigned long long)k->max_threads) return rt_err(cudaErrorInvalidValue);
  if (!g.x || !g.y || !g.z || g.x > 2147483647u || g.y > 65535 || g.z > 65535)
    return rt_err(cudaErrorInvalidValue);
  if (cu_dyn_smem_off(k) + smem > rt_prop.sharedMemPerBlock) return rt_err(cudaErrorInvalidValue);

  Launch L = {0};
  L.k = k;
  L.g = g;
  L.b = b;
  L.smem = smem;
  L.nthreads = (unsigned)nt;
  L.nwarps = (unsigned)((nt + 31) / 32);
  /* parameters are copied at launch, as CUDA does */
  size_t pal = k->param_align ? k->param_align : 8;
  char *pbuf = NULL;
  if (posix_memalign((void **)&pbuf, pal < sizeof(void *) ? sizeof(void *) : pal, k->param_bytes + 16))
    return rt_err(cudaErrorMemoryAllocation);
  for (unsigned i = 0; i < k->nparams; i++) memcpy(pbuf + k->param_off[i], args[i], k->param_size[i]);
  L.params = pbuf;

  pthread_mutex_lock(&launch_mu);
  int nw = rt_pool_workers();
  if (nwbufs < nw) {
    wbufs = realloc(wbufs, nw * sizeof *wbufs);
    memset(wbufs + nwbufs, 0, (nw - nwbufs) * sizeof *wbufs);
    nwbufs = nw;
  }
  size_t sb = cu_dyn_smem_off(k) + smem + CU_SMEM_ALIGN;
  size_t lb = (size_t)k->lane_bytes * L.nwarps * 32 + 64;
  for (int w = 0; w < nw; w++) {
    if (!grow(&wbufs[w].smem, &wbufs[w].nsmem, sb) || !grow(&wbufs[w].lanes, &wbufs[w].nlanes, lb)) {
      pthread_mutex_unlock(&launch_mu);
      free(pbuf);
      return rt_err(cudaErrorMemoryAllocation);
    }
  }
  rt_pool_run((unsigned long long)g.x * g.y * g.z, run_block, &L);
  pthread_mutex_unlock(&launch_mu);
  free(pbuf);
  fflush(stdout);   /* kernel printf is flushed when the kernel completes */
  return cudaSuccess;
}

void cu_launch_stub(const void *stub, void **args) {
  if (ncfg == 0) {
    fprintf(stderr, "cucc: error: kernel called without a launch configuration\n");
    rt_err(cudaErrorInvalidConfiguration);
    return;
  }
  Cfg c = cfgs[--ncfg];
  const cu_kernel *k = find(stub);
  if (!k) {
    rt_err(cudaErrorInvalidDeviceFunction);
    return;
  }
  launch(k, c.g, c.b, c.smem, args);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 g, dim3 b, void **args, size_t smem, cudaStream_t s) {
  (void)s;
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  cu_idx3 gg = {g.x, g.y, g.z}, bb = {b.x, b.y, b.z};
  return launch(k, gg, bb, smem, args);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func) {
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  if (!a) return rt_err(cudaErrorInvalidValue);
  memset(a, 0, sizeof *a);
  a->sharedSizeBytes = k->smem_static;
  a->numRegs = k->nregs;
  a->maxThreadsPerBlock = k->max_threads ? k->max_threads : 1024;
  a->maxDynamicSharedSizeBytes = (int)(rt_prop.sharedMemPerBlock - k->smem_static);
  a->ptxVersion = a->binaryVersion = rt_prop.major * 10 + rt_prop.minor;
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache c) {
  (void)c;
  return find(func) ? cudaSuccess : rt_err(cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c) {
  (void)c;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return rt_err(rt_take_sticky()); }
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

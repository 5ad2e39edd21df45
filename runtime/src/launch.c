/* launch.c: kernel registry, launch configuration and launches.
 * Host stubs and device descriptors register from constructors of their
 * objects in any order; they are joined by name at the first launch. */
#include "rt.h"
#include <stdatomic.h>
#include <time.h>

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

/* blockIdx of the j-th block of grid g, x fastest */
static cu_idx3 block_idx(unsigned long long j, cu_idx3 g) {
  return (cu_idx3){(unsigned)(j % g.x), (unsigned)((j / g.x) % g.y), (unsigned)(j / ((unsigned long long)g.x * g.y))};
}

/* Blocks first..end-1 on worker w: blockIdx steps x fastest, with no
 * division per block (CUCC_SCHEDULE=shuffle: in the launch's order). */
static void run_blocks(unsigned long long i, unsigned long long end, int w, void *arg) {
  Launch *L = arg;
  cu_block B = {0};
  B.blockIdx = block_idx(i, L->g);
  B.blockDim = L->b;
  B.gridDim = L->g;
  B.nthreads = L->nthreads;
  B.nwarps = L->nwarps;
  B.smem = wbufs[w].smem;
  B.dyn_smem = L->smem;
  B.lanes = wbufs[w].lanes;
  B.kernel = L->k;
  B.launch = (struct cu_launch *)L;
  bool shuffle = cu_rt_mode & CU_MODE_SHUFFLE;
  for (; i < end; i++) {
    if (atomic_load_explicit(&L->failed, memory_order_relaxed)) return;   /* a faulted kernel stops, as on a GPU */
    if (shuffle) {
      unsigned long long j = rt_sched_block(i);
      B.blockIdx = block_idx(j, L->g);
      B.worder = rt_sched_warps(j);
    }
    L->k->fn(&B, L->params);
    if (++B.blockIdx.x == L->g.x) {
      B.blockIdx.x = 0;
      if (++B.blockIdx.y == L->g.y) {
        B.blockIdx.y = 0;
        B.blockIdx.z++;
      }
    }
  }
}

void rt_launch_failed(const cu_block *B) {
  Launch *L = (Launch *)B->launch;
  atomic_store(&L->failed, 1);
  rt_set_sticky(cudaErrorLaunchFailure);
}

void cu_fault(const cu_block *B, unsigned tid, const char *file, int line, const char *msg) {
  Launch *L = (Launch *)B->launch;
  rt_launch_failed(B);
  if (rt_ck_fault(B, tid, file, line, msg)) return;   /* cucc --check: synccheck's report */
  if (atomic_fetch_add(&L->reports, 1) >= 8) return;
  unsigned dx = B->blockDim.x, dy = B->blockDim.y;
  fprintf(stderr, "cucc: kernel '%s' block (%u,%u,%u) thread (%u,%u,%u) at %s:%d: %s\n",
          B->kernel->pretty, B->blockIdx.x, B->blockIdx.y, B->blockIdx.z, tid % dx, (tid / dx) % dy,
          tid / (dx * dy), file, line, msg);
}

/* Registers per thread of k on model m: the compiler's estimate, capped by
 * __launch_bounds__ so that its block size fits one SM's register file. */
int rt_kernel_regs(const cu_kernel *k, const rt_model *m) {
  int r = k->nregs;
  if (k->max_threads > 0) {
    int warps = (k->max_threads + 31) / 32;
    int cap = m->regs_sm / (warps * 32) / 8 * 8;   /* whole allocation steps */
    if (cap < r) r = cap < 16 ? 16 : cap;
  }
  if (r > m->max_regs_thread) r = m->max_regs_thread;
  return r;
}

/* ---- CUCC_REPORT=1: a line per launch, a summary per kernel at exit ---- */
typedef struct Sum { const cu_kernel *k; unsigned long calls; double ms, occ; } Sum;
static Sum sums[256];
static int nsums, report = -1;

static void summary(void) {
  if (!nsums) return;
  fprintf(stderr, "cucc: kernel summary (%s model, %d SMs)\n", rt_model_cur()->gpu, rt_model_cur()->sms);
  for (int i = 0; i < nsums; i++)
    fprintf(stderr, "cucc:   %s: calls=%lu total_ms=%.3f mean_ms=%.3f occupancy=%.1f%%\n", sums[i].k->pretty,
            sums[i].calls, sums[i].ms, sums[i].ms / sums[i].calls, 100.0 * sums[i].occ / sums[i].calls);
}

static void note_launch(const cu_kernel *k, cu_idx3 g, cu_idx3 b, size_t smem, int regs, const rt_occ *o,
                        unsigned long long nblocks, double ms) {
  const rt_model *m = rt_model_cur();
  unsigned long long per_wave = (unsigned long long)o->blocks * m->sms;
  fprintf(stderr,
          "cucc: launch %s grid (%u,%u,%u) block (%u,%u,%u) smem %zu regs %d: %d blocks/SM (limited by %s), "
          "occupancy %.1f%% (%d of %d warps), waves %llu, %.3f ms\n",
          k->pretty, g.x, g.y, g.z, b.x, b.y, b.z, (size_t)(k->smem_static + smem), regs, o->blocks, o->limiter,
          100.0 * o->occupancy, o->blocks * (int)((b.x * b.y * b.z + 31) / 32), m->threads_sm / 32,
          per_wave ? (nblocks + per_wave - 1) / per_wave : 0, ms);
  int i = 0;
  while (i < nsums && sums[i].k != k) i++;
  if (i == nsums && nsums < 256) {
    if (!nsums) atexit(summary);
    sums[nsums++] = (Sum){k, 0, 0, 0};
  }
  if (i < nsums) {
    sums[i].calls++;
    sums[i].ms += ms;
    sums[i].occ += o->occupancy;
  }
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static cudaError_t launch(const cu_kernel *k, cu_idx3 g, cu_idx3 b, size_t smem, void **args) {
  /* the limits of the modelled GPU; a real H100 answers
   * cudaErrorInvalidValue to each violation (tests/data) */
  const rt_model *m = rt_model_cur();
  unsigned long long nt = (unsigned long long)b.x * b.y * b.z;
  if (!b.x || !b.y || !b.z || b.x > (unsigned)m->block_x || b.y > (unsigned)m->block_y ||
      b.z > (unsigned)m->block_z || nt > (unsigned long long)m->threads_block)
    return rt_err(cudaErrorInvalidValue);
  if (k->max_threads && nt > (unsigned long long)k->max_threads) return rt_err(cudaErrorInvalidValue);
  if (!g.x || !g.y || !g.z || g.x > (unsigned)m->grid_x || g.y > (unsigned)m->grid_y || g.z > (unsigned)m->grid_z)
    return rt_err(cudaErrorInvalidValue);
  if (cu_dyn_smem_off(k) + smem > rt_props()->sharedMemPerBlock) return rt_err(cudaErrorInvalidValue);
  /* residency on one SM: a block that cannot fit at all never runs */
  int regs = rt_kernel_regs(k, m);
  rt_occ occ;
  if (rt_occupancy(m, (int)nt, regs, k->smem_static + smem, &occ) == 0)
    return rt_err(occ.by_regs == 0 ? cudaErrorLaunchOutOfResources : cudaErrorInvalidValue);
  if (report < 0) {
    const char *r = getenv("CUCC_REPORT");
    report = r && *r && strcmp(r, "0");
    /* modes that the generated code reads per block */
    cu_rt_mode = (rt_prof_on() ? CU_MODE_PROF : 0) | (rt_sched_shuffle() ? CU_MODE_SHUFFLE : 0);
  }
  bool timed = report || (cu_rt_mode & CU_MODE_PROF);
  double t0 = timed ? now_ms() : 0;

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
  unsigned long long nblocks = (unsigned long long)g.x * g.y * g.z;
  if (cu_rt_mode & CU_MODE_SHUFFLE) rt_sched_launch(nblocks, L.nwarps);
  if (k->barriers && occ.blocks > 1 && nblocks > 1 && rt_interleave_ok())
    rt_sm_run(k, L.params, g, b, smem, L.nthreads, L.nwarps, occ.blocks, (struct cu_launch *)&L, &L.failed);
  else
    rt_pool_run(nblocks, rt_pool_chunk(nblocks), run_blocks, &L);
  double ms = timed ? now_ms() - t0 : 0;
  if (report) note_launch(k, g, b, smem, regs, &occ, nblocks, ms);
  if (cu_rt_mode & CU_MODE_PROF) rt_prof_note(k, ms, occ.occupancy);
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
  a->numRegs = rt_kernel_regs(k, rt_model_cur());
  a->maxThreadsPerBlock = k->max_threads ? k->max_threads : 1024;
  a->maxDynamicSharedSizeBytes = (int)(rt_props()->sharedMemPerBlock - k->smem_static);
  a->ptxVersion = a->binaryVersion = rt_props()->major * 10 + rt_props()->minor;
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

/* ---- occupancy API ---- */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func, int bs,
                                                                  size_t dyn, unsigned int flags) {
  (void)flags;
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  if (!n || bs <= 0) return rt_err(cudaErrorInvalidValue);
  const rt_model *m = rt_model_cur();
  *n = rt_occupancy(m, bs, rt_kernel_regs(k, m), k->smem_static + dyn, NULL);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int bs, size_t dyn) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, bs, dyn, 0);
}

/* The block size with the highest occupancy (the largest such), and the
 * grid that fills every SM with it, as CUDA's helper computes them. */
cudaError_t cu_occupancy_potential(int *min_grid, int *block, const void *func,
                                   size_t (*smem_of)(int, void *), void *cl, size_t dyn, int limit) {
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  if (!min_grid || !block) return rt_err(cudaErrorInvalidValue);
  const rt_model *m = rt_model_cur();
  int maxb = k->max_threads ? k->max_threads : m->threads_block;
  if (limit > 0 && limit < maxb) maxb = limit;
  rt_potential(m, rt_kernel_regs(k, m), k->smem_static, smem_of, cl, dyn, maxb, min_grid, block);
  return cudaSuccess;
}

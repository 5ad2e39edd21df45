/* launch.c: kernel registry, launch configuration and launches.
 * Host stubs and device descriptors register from constructors of their
 * objects in any order; they are joined by name at the first launch. */
#include "rt.h"
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct Stub { const void *stub; const char *name; const cu_kernel *k; } Stub;

static const cu_kernel **kernels;
static unsigned nkernels, capk;
static Stub *stubs;
static unsigned nstubs, caps;
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
/* CUCC_SCHEDULE=shuffle keeps one order at a time (sched.c): grids of all
 * devices run one at a time then */
static pthread_mutex_t shuffle_mu = PTHREAD_MUTEX_INITIALIZER;

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

const cu_kernel *rt_kernel_of(const void *func) { return find(func); }

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
  rt_dev *dev;
  const cu_kernel *k;
  cu_idx3 g, b;
  size_t smem;
  const char *params;
  unsigned nthreads, nwarps;
  size_t smem_bytes, lane_bytes;
  _Atomic int failed;
  _Atomic int reports;
  int coop;                       /* cudaLaunchCooperativeKernel: every block resident */
  unsigned long long nblocks;
  unsigned long long wave;        /* the blocks resident at once: all run after an assert */
  _Atomic unsigned long long arrived, gen;   /* the grid barrier (cu_grid_sync) */
  int depth;                      /* 0: launched by the host; a child: its parent's + 1 */
  unsigned long long seq;         /* this grid's number in the process */
  rt_kids kids;                   /* what its threads launched (cdp.c) */
} Launch;

/* for device code's launches and runtime calls (cdp.c) */
static _Atomic unsigned long long launches;
rt_kids *rt_grid_kids(const cu_block *B) { return &((Launch *)B->launch)->kids; }
rt_dev *rt_grid_dev(const cu_block *B) { return ((Launch *)B->launch)->dev; }
unsigned long long rt_grid_seq(const cu_block *B) { return ((Launch *)B->launch)->seq; }

/* buffers for shared memory and per-thread storage, one per pool slot
 * (each used by one thread at a time, whatever device it works for) */
typedef struct WBuf { char *smem, *lanes; size_t nsmem, nlanes; } WBuf;
static WBuf *wbufs;
static pthread_once_t wbufs_once = PTHREAD_ONCE_INIT;

static void wbufs_init(void) { wbufs = calloc((size_t)rt_pool_slots(), sizeof *wbufs); }

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

/* block B of kernel k, its warps one way or another */
static inline void block_run(const cu_kernel *k, cu_block *B, const char *params) {
  if (k->wco == 1) rt_warps_run(k, B, params);   /* its warps wait for each other (warps.c) */
  else if (k->wco == 2) rt_warps_batched(k, B, params);   /* batched atomics (warps.c) */
  else k->fn(B, params);
}

/* Runs block B of kernel k: to its end, or to a failed assert's
 * cu_block_stop (a simulated SM's blocks, one at a time; a pool worker's
 * run of blocks takes one _setjmp for all: run_blocks). (Its own frame, so
 * that nothing of the caller's is live across the _setjmp.) */
void rt_run_block(const cu_kernel *k, cu_block *B, const char *params) {
  jmp_buf stop;
  const cu_block *up = rt_fault_block;   /* (a child grid run inside a block) */
  B->stop = &stop;
  rt_fault_block = B;
  /* (a child grid's block run inside a warp coroutine is not one of its
   * block's warps; they are again after it, even if it stopped) */
  void *const ws = rt_warps_out();
  if (!_setjmp(stop)) block_run(k, B, params);
  rt_warps_in(ws);
  B->stop = NULL;
  rt_fault_block = up;
}

/* ---- a kernel's crash, reported as a GPU's fault ----
 * A wild access in device code (a GPU's cudaErrorIllegalAddress), an
 * integer division by zero or INT_MIN / -1 (which a GPU computes without
 * a trap, and the CPU traps on), or __trap() killed the whole program with a bare
 * "Segmentation fault". The signal now ends the faulting block, names the
 * kernel and block (the thread and line are --check's to find: it checks
 * each access), and fails the launch: its synchronization returns
 * cudaErrorIllegalAddress (or cudaErrorLaunchFailure for the division),
 * sticky, as on a GPU. A fault outside any kernel goes to the handler
 * that was there before. (Not under AddressSanitizer, which reports such
 * faults itself.) */
_Thread_local const cu_block *rt_fault_block;
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)   /* (the sanitizers report faults themselves) */
static struct sigaction fault_old[4];
static const int fault_sig[4] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

static void on_fault(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  int i = sig == SIGSEGV ? 0 : sig == SIGBUS ? 1 : sig == SIGFPE ? 2 : 3;
  const cu_block *B = rt_fault_block;
  if (!B || !B->stop || !B->launch) {   /* not in a kernel: as before (the fault happens again) */
    sigaction(sig, &fault_old[i], NULL);
    return;
  }
  Launch *L = (Launch *)B->launch;
  bool div = sig == SIGFPE, trap = sig == SIGILL;
  atomic_store(&L->failed, 1);
  rt_set_sticky(L->dev, div || trap ? cudaErrorLaunchFailure : cudaErrorIllegalAddress);
  if (atomic_fetch_add(&L->reports, 1) < 8) {
    char m[512];
    int n = trap ? snprintf(m, sizeof m,
                            "cucc: kernel '%s' block (%u,%u,%u): __trap() (or an illegal instruction): the launch "
                            "fails (cudaErrorLaunchFailure)\n",
                            B->kernel->pretty, B->blockIdx.x, B->blockIdx.y, B->blockIdx.z)
          : div ? snprintf(m, sizeof m,
                           "cucc: kernel '%s' block (%u,%u,%u): integer division by zero (or INT_MIN / -1), "
                           "which a GPU computes to an undefined value and the CPU traps on: the launch fails\n",
                           B->kernel->pretty, B->blockIdx.x, B->blockIdx.y, B->blockIdx.z)
                : snprintf(m, sizeof m,
                           "cucc: kernel '%s' block (%u,%u,%u): illegal memory access at address %p: the launch "
                           "fails (cudaErrorIllegalAddress)%s\n",
                           B->kernel->pretty, B->blockIdx.x, B->blockIdx.y, B->blockIdx.z, si->si_addr,
                           cu_ck_what ? "" : "; cucc --check names the thread and line");
    if (n > 0) {
      ssize_t r = write(2, m, (size_t)n < sizeof m ? (size_t)n : sizeof m - 1);
      (void)r;
    }
  }
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);   /* (the jump leaves the handler for good) */
  _longjmp(*(jmp_buf *)B->stop, 1);
}
#endif

static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static void fault_init(void) {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 4; i++) sigaction(fault_sig[i], &sa, &fault_old[i]);
#endif
}

void cu_block_stop(const cu_block *B) {
  if (B->stop) _longjmp(*(jmp_buf *)B->stop, 1);
  abort();   /* (every block runs through rt_run_block) */
}

/* ---- a worker's pending reductions (cucc_rt.h's cu_red) ---- */
__thread cu_red cu_reds[CU_NRED];
__thread int cu_nred;

static void red_do(cu_red *r) {   /* the atomicAdd itself (as cucc_dev.h's) */
  if (r->kind == CU_RED_U32) {
    __atomic_fetch_add((unsigned *)r->p, (unsigned)r->u, __ATOMIC_RELAXED);
  } else if (r->kind == CU_RED_U64) {
    __atomic_fetch_add((unsigned long long *)r->p, r->u, __ATOMIC_RELAXED);
  } else if (r->kind == CU_RED_D) {
    unsigned long long o = __atomic_load_n((unsigned long long *)r->p, __ATOMIC_RELAXED), n;
    double f;
    do {
      memcpy(&f, &o, sizeof f);
      f += r->d;
      memcpy(&n, &f, sizeof n);
    } while (!__atomic_compare_exchange_n((unsigned long long *)r->p, &o, n, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  } else {
    unsigned o = __atomic_load_n((unsigned *)r->p, __ATOMIC_RELAXED), n;
    float f;
    do {
      memcpy(&f, &o, sizeof f);
      f += r->f;
      memcpy(&n, &f, sizeof n);
    } while (!__atomic_compare_exchange_n((unsigned *)r->p, &o, n, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  }
}

void cu_red_flush(int only, unsigned long long blk) {
  int k = 0;
  for (int i = 0; i < cu_nred; i++) {
    if (!only || cu_reds[i].blk == blk) red_do(&cu_reds[i]);
    else cu_reds[k++] = cu_reds[i];
  }
  cu_nred = k;
}

/* Blocks first..end-1 on worker w: blockIdx steps x fastest, with no
 * division per block (CUCC_SCHEDULE=shuffle: in the launch's order). */
static void run_blocks(unsigned long long i, unsigned long long end, int w, void *arg) {
  Launch *L = arg;
  WBuf *wb = wbufs ? &wbufs[w] : NULL;
  if (!wb || !grow(&wb->smem, &wb->nsmem, cu_dyn_smem_off(L->k) + L->smem + CU_SMEM_ALIGN) ||
      !grow(&wb->lanes, &wb->nlanes, (size_t)L->k->lane_bytes * L->nwarps * 32 + 64)) {
    atomic_store(&L->failed, 1);   /* reported at the next synchronization */
    rt_set_sticky(L->dev, cudaErrorMemoryAllocation);
    return;
  }
  rt_dev_enter(L->dev->id);
  cu_block B = {0};
  B.blockIdx = block_idx(i, L->g);
  B.blockDim = L->b;
  B.gridDim = L->g;
  B.nthreads = L->nthreads;
  B.nwarps = B.wend = L->nwarps;
  B.smem = wb->smem;
  B.dyn_smem = L->smem;
  B.lanes = wb->lanes;
  B.kernel = L->k;
  B.launch = (struct cu_launch *)L;
  bool shuffle = cu_rt_mode & CU_MODE_SHUFFLE;
  /* rt_run_block's bookkeeping once for the worker's run of blocks, not
   * per block (a _setjmp and the thread-locals were about 100
   * instructions a block, 8% of a reduction's 256-thread block): a block
   * that stops (cu_block_stop: an assert, a fault) comes back to this
   * _setjmp, and the run goes on at the block after it (vi: volatile, as
   * it changes between the _setjmp and a jump back; i and B.blockIdx are
   * computed again from it) */
  jmp_buf stop;
  const cu_block *up = rt_fault_block;
  void *const ws = rt_warps_out();
  volatile unsigned long long vi = i;
  B.stop = &stop;
  rt_fault_block = &B;
  while (_setjmp(stop)) {   /* block vi stopped (out of whatever it ran, a child grid's blocks) */
    rt_warps_in(NULL);
    rt_fault_block = &B;
    vi = vi + 1;
    B.blockIdx = block_idx(vi, L->g);
  }
  for (i = vi; i < end; i++) {
    /* a faulted kernel stops, as on a GPU; after an assert (failed == 2)
     * the blocks of its first wave, which a GPU runs at once, still run:
     * each thread that fails it prints it, as on an H100 */
    int f = atomic_load_explicit(&L->failed, memory_order_relaxed);
    if (f && (f != 2 || i >= L->wave)) break;
    if (shuffle) {
      unsigned long long j = rt_sched_block(i);
      B.blockIdx = block_idx(j, L->g);
      B.worder = rt_sched_warps(j);
    }
    vi = i;
    block_run(L->k, &B, L->params);
    if (++B.blockIdx.x == L->g.x) {
      B.blockIdx.x = 0;
      if (++B.blockIdx.y == L->g.y) {
        B.blockIdx.y = 0;
        B.blockIdx.z++;
      }
    }
  }
  rt_warps_in(ws);
  B.stop = NULL;
  rt_fault_block = up;
  if (cu_nred) cu_red_flush(0, 0);
}

void rt_launch_failed(const cu_block *B) {
  Launch *L = (Launch *)B->launch;
  atomic_store(&L->failed, 1);
  rt_set_sticky(L->dev, cudaErrorLaunchFailure);
}

int rt_launch_dev(const cu_block *B) { return ((Launch *)B->launch)->dev->id; }

void cu_fault(const cu_block *B, unsigned tid, const char *file, int line, const char *msg) {
  cu_fault_err(B, tid, file, line, msg, cudaErrorLaunchFailure);
}

void cu_fault_err(const cu_block *B, unsigned tid, const char *file, int line, const char *msg, int err) {
  Launch *L = (Launch *)B->launch;
  int none = 0;   /* (an assert: 2, unless another fault came first; another fault: 1) */
  if (err == cudaErrorAssert) atomic_compare_exchange_strong(&L->failed, &none, 2);
  else atomic_store(&L->failed, 1);
  rt_set_sticky(L->dev, (cudaError_t)err);
  unsigned dx = B->blockDim.x, dy = B->blockDim.y;
  if (err == cudaErrorAssert) {
    /* as a GPU prints it, through printf's buffer, after the kernel's lines */
    char m[1024];
    snprintf(m, sizeof m, "%s:%d: void %s: block: [%u,%u,%u], thread: [%u,%u,%u] %s", file, line, B->kernel->pretty,
             B->blockIdx.x, B->blockIdx.y, B->blockIdx.z, tid % dx, (tid / dx) % dy, tid / (dx * dy), msg);
    rt_printf_err(m);
    rt_ck_assert(B, tid, file, line);   /* cucc --check: memcheck's "Warp assert" */
    return;
  }
  if (rt_ck_fault(B, tid, file, line, msg)) return;   /* cucc --check: synccheck's report */
  if (atomic_fetch_add(&L->reports, 1) >= 8) return;
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
static int nsums, report;
static pthread_mutex_t sum_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t mode_once = PTHREAD_ONCE_INIT;

/* modes that the generated code reads per block, and CUCC_REPORT */
static void modes(void) {
  const char *r = getenv("CUCC_REPORT");
  report = r && *r && strcmp(r, "0");
  cu_rt_mode = (rt_prof_on() ? CU_MODE_PROF : 0) | (rt_sched_shuffle() ? CU_MODE_SHUFFLE : 0) | rt_versions();
}

static void summary(void) {
  if (!nsums) return;
  const rt_model *m = &rt_dev_at(0)->model;
  if (rt_ndev() > 1) fprintf(stderr, "cucc: kernel summary (%d devices, device 0: %s model, %d SMs)\n", rt_ndev(), m->gpu, m->sms);
  else fprintf(stderr, "cucc: kernel summary (%s model, %d SMs)\n", m->gpu, m->sms);
  for (int i = 0; i < nsums; i++)
    fprintf(stderr, "cucc:   %s: calls=%lu total_ms=%.3f mean_ms=%.3f occupancy=%.1f%%\n", sums[i].k->pretty,
            sums[i].calls, sums[i].ms, sums[i].ms / sums[i].calls, 100.0 * sums[i].occ / sums[i].calls);
}

static void note_launch(rt_dev *d, const cu_kernel *k, cu_idx3 g, cu_idx3 b, size_t smem, int regs,
                        const rt_occ *o, unsigned long long nblocks, double ms) {
  const rt_model *m = &d->model;
  unsigned long long per_wave = (unsigned long long)o->blocks * m->sms;
  char on[32] = "";
  if (rt_ndev() > 1) snprintf(on, sizeof on, " on device %d", d->id);
  pthread_mutex_lock(&sum_mu);
  fprintf(stderr,
          "cucc: launch %s%s grid (%u,%u,%u) block (%u,%u,%u) smem %zu regs %d: %d blocks/SM (limited by %s), "
          "occupancy %.1f%% (%d of %d warps), waves %llu, %.3f ms\n",
          k->pretty, on, g.x, g.y, g.z, b.x, b.y, b.z, (size_t)(k->smem_static + smem), regs, o->blocks, o->limiter,
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
  pthread_mutex_unlock(&sum_mu);
}

/* Per-kernel settings of cudaFuncSetAttribute (kernels are const). */
typedef struct Attr { const cu_kernel *k; int max_dyn; } Attr;
static Attr *attrs;
static int nattrs;

static int max_dyn_smem(const cu_kernel *k, const rt_dev *d) {
  int v = (int)(d->prop.sharedMemPerBlock - cu_dyn_smem_off(k));
  pthread_mutex_lock(&reg_mu);
  for (int i = 0; i < nattrs; i++)
    if (attrs[i].k == k) v = attrs[i].max_dyn;
  pthread_mutex_unlock(&reg_mu);
  return v;
}

/* A launch checked and ready to run: its own copy of the arguments. */
struct Job {
  rt_dev *dev;
  const cu_kernel *k;
  cu_idx3 g, b;
  size_t smem;
  char *pbuf;
  int regs;
  rt_occ occ;
  int coop;
  int depth;                      /* of the grid: Launch.depth */
};

/* Checks a launch as CUDA does when it is issued (the limits of the
 * modelled GPU; a real H100 answers cudaErrorInvalidValue to each
 * violation, tests/data) and copies its parameters, as CUDA does. */
static cudaError_t prepare(rt_dev *d, const cu_kernel *k, cu_idx3 g, cu_idx3 b, size_t smem, void **args,
                           Job **out) {
  const rt_model *m = &d->model;
  unsigned long long nt = (unsigned long long)b.x * b.y * b.z;
  if (!b.x || !b.y || !b.z || b.x > (unsigned)m->block_x || b.y > (unsigned)m->block_y ||
      b.z > (unsigned)m->block_z || nt > (unsigned long long)m->threads_block)
    return cudaErrorInvalidValue;
  if (k->max_threads && nt > (unsigned long long)k->max_threads) return cudaErrorInvalidValue;
  if (!g.x || !g.y || !g.z || g.x > (unsigned)m->grid_x || g.y > (unsigned)m->grid_y || g.z > (unsigned)m->grid_z)
    return cudaErrorInvalidValue;
  if (smem > (size_t)max_dyn_smem(k, d)) return cudaErrorInvalidValue;
  /* residency on one SM: a block that cannot fit at all never runs */
  Job *j = calloc(1, sizeof *j);
  if (!j) return cudaErrorMemoryAllocation;
  j->regs = rt_kernel_regs(k, m);
  if (rt_occupancy(m, (int)nt, j->regs, k->smem_static + smem, &j->occ) == 0) {
    cudaError_t e = j->occ.by_regs == 0 ? cudaErrorLaunchOutOfResources : cudaErrorInvalidValue;
    free(j);
    return e;
  }
  size_t pal = k->param_align ? k->param_align : 8;
  if (posix_memalign((void **)&j->pbuf, pal < sizeof(void *) ? sizeof(void *) : pal, k->param_bytes + 16)) {
    free(j);
    return cudaErrorMemoryAllocation;
  }
  for (unsigned i = 0; i < k->nparams; i++) memcpy(j->pbuf + k->param_off[i], args[i], k->param_size[i]);
  j->dev = d;
  j->k = k;
  j->g = g;
  j->b = b;
  j->smem = smem;
  *out = j;
  return cudaSuccess;
}

/* Runs a prepared launch to completion (on its stream's thread, or on the
 * caller for a default stream). One grid at a time per device; devices
 * run theirs at once, each on its share of the workers. */
void rt_job_run(Job *j) {
  rt_dev *d = j->dev;
  const cu_kernel *k = j->k;
  cu_idx3 g = j->g, b = j->b;
  size_t smem = j->smem;
  pthread_once(&mode_once, modes);
  pthread_once(&wbufs_once, wbufs_init);
  pthread_once(&fault_once, fault_init);
  bool shuffle = cu_rt_mode & CU_MODE_SHUFFLE;
  if (shuffle) pthread_mutex_lock(&shuffle_mu);
  pthread_mutex_lock(&d->launch_mu);
  bool timed = report || (cu_rt_mode & CU_MODE_PROF) || rt_prof_sum;
  long long t0 = timed ? rt_prof_now() : 0;

  Launch L = {0};
  L.dev = d;
  L.k = k;
  L.g = g;
  L.b = b;
  L.smem = smem;
  L.nthreads = b.x * b.y * b.z;
  L.nwarps = (L.nthreads + 31) / 32;
  L.params = j->pbuf;
  L.coop = j->coop;
  L.wave = (unsigned long long)j->occ.blocks * d->model.sms;
  L.nblocks = (unsigned long long)g.x * g.y * g.z;
  L.depth = j->depth;
  L.seq = atomic_fetch_add(&launches, 1) + 1;
  rt_kids_init(&L.kids);
  unsigned long long nblocks = L.nblocks;
  if (shuffle) rt_sched_launch(nblocks, L.nwarps);
  if (j->coop)   /* every worker can hold the whole grid: no block waits for a free slot */
    rt_sm_run(d, k, L.params, g, b, smem, L.nthreads, L.nwarps, (int)nblocks, (struct cu_launch *)&L, &L.failed);
  else if (k->barriers && j->occ.blocks > 1 && nblocks > 1 && rt_interleave_ok())
    rt_sm_run(d, k, L.params, g, b, smem, L.nthreads, L.nwarps, j->occ.blocks, (struct cu_launch *)&L, &L.failed);
  else
    rt_pool_run(d->id, nblocks, rt_pool_chunk(nblocks), run_blocks, &L);
  long long ns = timed ? rt_prof_now() - t0 : 0;
  double ms = ns / 1e6;
  pthread_mutex_unlock(&d->launch_mu);
  if (shuffle) pthread_mutex_unlock(&shuffle_mu);
  if (report) note_launch(d, k, g, b, smem, j->regs, &j->occ, nblocks, ms);
  if (cu_rt_mode & CU_MODE_PROF) rt_prof_note(k, ms, j->occ.occupancy);
  if (rt_prof_sum) rt_prof_kernel(k, ns);
  /* a grid completes after the grids its threads launched (cdp.c) */
  rt_kids_run(&L.kids, atomic_load(&L.failed));
  rt_printf_done(d->id);   /* device printf: its lines shortly after the kernel completes */
}

void rt_job_free(Job *j) {
  if (!j) return;
  free(j->pbuf);
  free(j);
}

static void run_job(void *p) {
  rt_job_run(p);
  rt_job_free(p);
}

/* A launch kept to run any number of times (a graph's kernel node), on
 * the device current when it is made. */
cudaError_t rt_job_new(const void *func, dim3 g, dim3 b, size_t smem, void **args, Job **out) {
  const cu_kernel *k = find(func);
  if (!k) return cudaErrorInvalidDeviceFunction;
  if (k->nparams && !args) return cudaErrorInvalidValue;
  cu_idx3 gg = {g.x, g.y, g.z}, bb = {b.x, b.y, b.z};
  return prepare(rt_cur(), k, gg, bb, smem, args, out);   /* on the current device */
}

Job *rt_job_copy(const Job *j) {
  Job *c = malloc(sizeof *c);
  size_t pal = j->k->param_align ? j->k->param_align : 8;
  if (!c || posix_memalign((void **)&c->pbuf, pal < sizeof(void *) ? sizeof(void *) : pal, j->k->param_bytes + 16)) {
    free(c);
    return NULL;
  }
  char *pb = c->pbuf;
  *c = *j;
  c->pbuf = pb;
  memcpy(c->pbuf, j->pbuf, j->k->param_bytes + 16);
  return c;
}

/* what cudaGraphKernelNodeGetParams reports; *argv (malloc'd, the
 * caller's to free) points into the job's own copy of the arguments */
void rt_job_params(const Job *j, void **func, dim3 *g, dim3 *b, size_t *smem, void ***argv) {
  const cu_kernel *k = j->k;
  *func = NULL;
  pthread_mutex_lock(&reg_mu);
  for (unsigned i = 0; i < nstubs && !*func; i++)
    if (stubs[i].k == k) *func = (void *)stubs[i].stub;
  pthread_mutex_unlock(&reg_mu);
  *g = (dim3){j->g.x, j->g.y, j->g.z};
  *b = (dim3){j->b.x, j->b.y, j->b.z};
  *smem = j->smem;
  void **v = malloc((k->nparams + 1) * sizeof *v);
  for (unsigned i = 0; v && i < k->nparams; i++) v[i] = j->pbuf + k->param_off[i];
  *argv = v;
}

const cu_kernel *rt_job_kernel(const Job *j) { return j->k; }

/* A grid runs on the current device, in a stream of that device (a
 * stream of another one is an invalid handle, as CUDA says). */
static cudaError_t launch(const cu_kernel *k, cu_idx3 g, cu_idx3 b, size_t smem, void **args, cudaStream_t s,
                          int coop) {
  cudaError_t e = rt_stream_check(s);
  rt_dev *d = rt_cur();
  if (!e && rt_stream_dev(s) != d) e = cudaErrorInvalidResourceHandle;
  if (!e) e = rt_take_sticky(d);
  Job *j = NULL;
  if (!e) e = prepare(d, k, g, b, smem, args, &j);
  if (e) return rt_err(e);
  /* a cooperative grid must be resident all at once: at most the blocks
   * per SM the occupancy allows, times the SMs */
  if (coop && ((unsigned long long)g.x * g.y * g.z > (unsigned long long)j->occ.blocks * d->model.sms ||
               !d->prop.cooperativeLaunch || !rt_sm_switch_ok())) {
    e = d->prop.cooperativeLaunch && rt_sm_switch_ok() ? cudaErrorCooperativeLaunchTooLarge
                                                       : cudaErrorNotSupported;
    free(j->pbuf);
    free(j);
    return rt_err(e);
  }
  j->coop = coop;
  if (rt_capturing(s)) return rt_cap_kernel(s, j);   /* a node of the graph being captured */
  rt_stream_push(s, run_job, j);
  return cudaSuccess;
}

/* ---- launches from device code (dynamic parallelism, cdp.c) ---- */

/* CUDA's nesting limit: a grid at depth 23 launches no more */
enum { MAX_DEPTH = 24 };

static const cu_kernel *named(const char *key) {
  const cu_kernel *k = NULL;
  pthread_mutex_lock(&reg_mu);
  for (unsigned i = 0; i < nkernels && !k; i++)
    if (kernels[i]->name == key || !strcmp(kernels[i]->name, key)) k = kernels[i];
  pthread_mutex_unlock(&reg_mu);
  return k;
}

/* k<<<g, b, smem, s>>>(args) by one thread of the running grid: checked
 * and its arguments copied as a host launch's, then queued on the parent,
 * which runs it after its blocks. Errors are device code's last error. */
void cu_dlaunch(const cu_block *B, unsigned tid, const char *key, cu_idx3 g, cu_idx3 b, size_t smem, void *stream,
                void **args) {
  Launch *P = (Launch *)B->launch;
  const cu_kernel *k = named(key);
  if (!k) {
    rt_dlast(B, tid, cudaErrorInvalidDeviceFunction);
    return;
  }
  if (P->depth + 1 >= MAX_DEPTH) {
    rt_dlast(B, tid, cudaErrorLaunchMaxDepthExceeded);
    return;
  }
  Job *j = NULL;
  cudaError_t e = prepare(P->dev, k, g, b, smem, args, &j);
  if (e) {
    rt_dlast(B, tid, e);
    return;
  }
  j->depth = P->depth + 1;
  if (rt_kids_add(&P->kids, j, stream)) rt_dlast(B, tid, cudaErrorMemoryAllocation);
}

/* grid.sync(): called once per block, with the block's threads between
 * two block barriers. The block waits by yielding its SM (sm.c) until
 * every block of the grid has arrived; they are all resident, so each
 * arrives. Outside a cooperative launch it is a fault, as on a GPU. */
void cu_grid_sync(const cu_block *B) {
  Launch *L = (Launch *)B->launch;
  if (cu_nred) cu_red_flush(0, 0);   /* (the other blocks see them after the sync) */
  if (!L->coop) {
    cu_fault(B, 0, B->kernel->file, B->kernel->line, "grid.sync() in a kernel not launched cooperatively");
    return;
  }
  unsigned long long gen = atomic_load(&L->gen);
  if (atomic_fetch_add(&L->arrived, 1) + 1 == L->nblocks) {
    atomic_store(&L->arrived, 0);
    atomic_fetch_add(&L->gen, 1);
    return;
  }
  while (atomic_load(&L->gen) == gen && !atomic_load(&L->failed)) cu_barrier(B);
}

/* k<<<g, b>>>(args): nvcc makes it a cudaLaunchKernel, and so it is named */
void cu_launch_stub(const void *stub, void **args) {
  RT_API_AS("cudaLaunchKernel");
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
  launch(k, c.g, c.b, c.smem, args, (cudaStream_t)c.stream, 0);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 g, dim3 b, void **args, size_t smem, cudaStream_t s) {
  RT_API();
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  cu_idx3 gg = {g.x, g.y, g.z}, bb = {b.x, b.y, b.z};
  return launch(k, gg, bb, smem, args, s, 0);
}

/* A launch with attributes: cooperative makes it a cooperative launch;
 * cluster dimensions must divide the grid (clusters themselves, and their
 * distributed shared memory, are not modelled: refused if the kernel asks
 * for more than one block per cluster); the others are hints. */
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *func, void **args) {
  RT_API();
  if (!c || (c->numAttrs && !c->attrs)) return rt_err(cudaErrorInvalidValue);
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  int coop = 0;
  for (unsigned i = 0; i < c->numAttrs; i++) {
    const cudaLaunchAttribute *a = &c->attrs[i];
    switch (a->id) {
    case cudaLaunchAttributeCooperative: coop = a->val.cooperative != 0; break;
    case cudaLaunchAttributeClusterDimension: {
      unsigned x = a->val.clusterDim.x, y = a->val.clusterDim.y, z = a->val.clusterDim.z;
      if (!x || !y || !z || c->gridDim.x % x || c->gridDim.y % y || c->gridDim.z % z) return rt_err(cudaErrorInvalidValue);
      if ((unsigned long long)x * y * z > 1) return rt_err(cudaErrorNotSupported);
      break;
    }
    case cudaLaunchAttributeIgnore: case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeSynchronizationPolicy: case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributeProgrammaticStreamSerialization: case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap: case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributePreferredSharedMemoryCarveout:
      break;
    default: return rt_err(cudaErrorNotSupported);
    }
  }
  cu_idx3 gg = {c->gridDim.x, c->gridDim.y, c->gridDim.z}, bb = {c->blockDim.x, c->blockDim.y, c->blockDim.z};
  return launch(k, gg, bb, c->dynamicSmemBytes, args, c->stream, coop);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 g, dim3 b, void **args, size_t smem,
                                        cudaStream_t s) {
  RT_API();
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  cu_idx3 gg = {g.x, g.y, g.z}, bb = {b.x, b.y, b.z};
  return launch(k, gg, bb, smem, args, s, 1);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func) {
  RT_API();
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  if (!a) return rt_err(cudaErrorInvalidValue);
  memset(a, 0, sizeof *a);
  a->sharedSizeBytes = k->smem_static;
  a->numRegs = rt_kernel_regs(k, rt_model_cur());
  a->maxThreadsPerBlock = k->max_threads ? k->max_threads : 1024;
  a->maxDynamicSharedSizeBytes = max_dyn_smem(k, rt_cur());
  a->localSizeBytes = 0;
  a->constSizeBytes = 0;
  a->preferredShmemCarveout = -1;
  a->ptxVersion = a->binaryVersion = rt_props()->major * 10 + rt_props()->minor;
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache c) {
  RT_API();
  if (!find(func)) return rt_err(cudaErrorInvalidDeviceFunction);
  return (unsigned)c > cudaFuncCachePreferEqual ? rt_err(cudaErrorInvalidValue) : cudaSuccess;
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig c) {
  RT_API();
  if (!find(func)) return rt_err(cudaErrorInvalidDeviceFunction);
  return (unsigned)c > cudaSharedMemBankSizeEightByte ? rt_err(cudaErrorInvalidValue) : cudaSuccess;
}

/* The dynamic shared memory a kernel may ask for: up to the opt-in limit
 * less its static part, as CUDA checks it. The carve-out is a preference
 * (a percentage); the others concern clusters, which are not modelled. */
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute a, int v) {
  RT_API();
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  if (a == cudaFuncAttributePreferredSharedMemoryCarveout)
    return v < -1 || v > 100 ? rt_err(cudaErrorInvalidValue) : cudaSuccess;
  if (a != cudaFuncAttributeMaxDynamicSharedMemorySize) return rt_err(cudaErrorInvalidValue);
  if (v < 0 || (size_t)v + k->smem_static > rt_props()->sharedMemPerBlockOptin) return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&reg_mu);
  int i = 0;
  while (i < nattrs && attrs[i].k != k) i++;
  if (i == nattrs) {
    Attr *na = realloc(attrs, (nattrs + 1) * sizeof *attrs);
    if (!na) {
      pthread_mutex_unlock(&reg_mu);
      return rt_err(cudaErrorMemoryAllocation);
    }
    attrs = na;
    attrs[nattrs++].k = k;
  }
  attrs[i].max_dyn = v;
  pthread_mutex_unlock(&reg_mu);
  return cudaSuccess;
}

/* Waits for every stream of the current device, then reports a kernel of
 * it that failed. */
cudaError_t cudaDeviceSynchronize(void) {
  RT_API();
  rt_sync_dev(rt_cur());
  return rt_err(rt_take_sticky(rt_cur()));
}
cudaError_t cudaThreadSynchronize(void) { RT_API(); return cudaDeviceSynchronize(); }

/* ---- occupancy API ---- */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func, int bs,
                                                                  size_t dyn, unsigned int flags) {
  RT_API();
  (void)flags;
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  if (!n || bs <= 0) return rt_err(cudaErrorInvalidValue);
  const rt_model *m = rt_model_cur();
  *n = rt_occupancy(m, bs, rt_kernel_regs(k, m), k->smem_static + dyn, NULL);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int bs, size_t dyn) {
  RT_API();
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, bs, dyn, 0);
}

/* The block size with the highest occupancy (the largest such), and the
 * grid that fills every SM with it, as CUDA's helper computes them. */
cudaError_t cu_occupancy_potential(int *min_grid, int *block, const void *func,
                                   size_t (*smem_of)(int, void *), void *cl, size_t dyn, int limit) {
  RT_API_AS(smem_of ? "cudaOccupancyMaxPotentialBlockSizeVariableSMem" : "cudaOccupancyMaxPotentialBlockSize");
  const cu_kernel *k = find(func);
  if (!k) return rt_err(cudaErrorInvalidDeviceFunction);
  if (!min_grid || !block) return rt_err(cudaErrorInvalidValue);
  const rt_model *m = rt_model_cur();
  int maxb = k->max_threads ? k->max_threads : m->threads_block;
  if (limit > 0 && limit < maxb) maxb = limit;
  rt_potential(m, rt_kernel_regs(k, m), k->smem_static, smem_of, cl, dyn, maxb, min_grid, block);
  return cudaSuccess;
}

/* sm.c: simulated SMs for kernels with barriers.
 *
 * An SM holds as many resident blocks as the occupancy rules allow and
 * switches between them: when a block's warps all wait at __syncthreads(),
 * another resident block runs. Here each resident block is a coroutine
 * (co.c: its own stack, shared memory and per-thread storage) that
 * yields at every barrier (cu_barrier). Each worker thread plays one SM,
 * cycling over its resident blocks; when a block finishes, the device-level
 * scheduler (an atomic block counter) gives its slot the next block of the
 * grid. (A worker used to play all its share of the model's SMs at once:
 * tens of resident blocks whose stacks, shared memory and per-thread storage
 * did not stay in cache, which made a reduction 2.6x slower.) Kernels
 * without barriers never yield, so they run as plain calls (pool.c).
 *
 * Interleaving is asked for with CUCC_INTERLEAVE=1. By default each worker
 * runs its blocks one after another: CUDA promises no order between blocks,
 * and the switches (two per barrier and block, each a mispredicted return
 * and a cold block's shared memory) made a reduction 2x slower. Under
 * AddressSanitizer stack switching is not annotated: no interleaving. */
#include "rt.h"
#include <stdatomic.h>
#include <sys/mman.h>

#define STACK (512 * 1024)

typedef struct Slot {
  rt_co co;                     /* the block's coroutine (co.c) */
  char *stack, *smem, *lanes;
  size_t nsmem, nlanes;
  cu_block B;
  int busy;
  int entered;                  /* its coroutine runs (this launch) */
} Slot;

typedef struct Share {          /* one worker's SM: its resident-block slots */
  Slot *slots;
  int cap;
} Share;

typedef struct Job {
  int dev;
  const cu_kernel *k;
  const char *params;
  cu_idx3 g, b;
  size_t dyn, smem_bytes, lane_bytes;
  unsigned nthreads, nwarps;
  int per_sm;
  unsigned long long nblocks, chunk;
  int parts;                     /* workers sharing the grid */
  _Atomic unsigned long long next;
  struct cu_launch *launch;
  _Atomic int *failed;
} Job;

static Share *shares;                /* one per pool slot: the SM a thread plays */
static pthread_once_t shares_once = PTHREAD_ONCE_INIT;

static void shares_init(void) { shares = calloc((size_t)rt_pool_slots(), sizeof *shares); }
static _Thread_local Slot *cur;
static _Thread_local rt_co home;     /* the SM loop of this worker */

/* __isLocal (cucc_dev.h): is p in a live frame of the stack this thread
 * runs a block on, between this call's frame and the stack's top: a
 * resident block's coroutine stack, or the worker thread's own. (A
 * thread's locals whose address is taken live there, or in the block's
 * per-thread storage, which cucc_dev.h checks.) */
__attribute__((noinline)) int cu_on_stack(const void *p) {
  static _Thread_local uintptr_t thread_top;
  volatile char here = 0;   /* the deepest live frame */
  uintptr_t lo = (uintptr_t)&here, a = (uintptr_t)p, top;
  if (rt_warp_stack(lo, &top)) {   /* a warp coroutine's (warps.c) */
  } else if (cur && cur->stack && lo >= (uintptr_t)cur->stack && lo < (uintptr_t)cur->stack + STACK) {
    top = (uintptr_t)cur->stack + STACK;
  } else {
    if (!thread_top) {
      pthread_attr_t at;
      void *base;
      size_t n;
      if (!pthread_getattr_np(pthread_self(), &at)) {
        if (!pthread_attr_getstack(&at, &base, &n)) thread_top = (uintptr_t)base + n;
        pthread_attr_destroy(&at);
      }
    }
    top = thread_top;
  }
  return a > lo && a < top;
}

/* Can blocks switch at barriers? (cooperative launches need it: a block
 * waiting at grid.sync() yields its SM) */
bool rt_sm_switch_ok(void) {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#else
  return true;
#endif
}

bool rt_interleave_ok(void) {
  const char *e = getenv("CUCC_INTERLEAVE");
  return rt_sm_switch_ok() && e && !strcmp(e, "1");
}

/* A block waits at its barrier while the SM runs its other resident
 * blocks; a warp of a block whose warps are coroutines (warps.c) waits
 * for the block's other warps. */
void cu_barrier(const cu_block *B) {
  if (B->warp) {
    rt_warps_barrier(B);
    return;
  }
  Slot *s = cur;
  if (s) rt_co_switch(&s->co, &home);
}

static _Thread_local Job *job;

/* A slot's coroutine runs block after block: entering a fresh context
 * costs system calls (getcontext/setcontext save the signal mask), so it
 * is done once per slot and launch, not once per block. */
static void tramp(void) {
  for (;;) {
    Slot *s = cur;
    rt_run_block(job->k, &s->B, job->params);
    s->busy = 0;
    rt_co_switch(&s->co, &home);   /* resumed with its next block */
  }
}

static bool grow(char **p, size_t *have, size_t want) {
  if (want <= *have) return true;
  free(*p);
  if (posix_memalign((void **)p, 64, want)) {
    *p = NULL;
    *have = 0;
    return false;
  }
  *have = want;
  return true;
}

static void start_block(Job *J, Slot *s, unsigned long long i) {
  cu_block *B = &s->B;
  if (cu_rt_mode & CU_MODE_SHUFFLE) B->worder = rt_sched_warps(i = rt_sched_block(i));   /* CUCC_SCHEDULE */
  B->blockIdx.x = (unsigned)(i % J->g.x);
  B->blockIdx.y = (unsigned)((i / J->g.x) % J->g.y);
  B->blockIdx.z = (unsigned)(i / ((unsigned long long)J->g.x * J->g.y));
  B->blockDim = J->b;
  B->gridDim = J->g;
  B->nthreads = J->nthreads;
  B->nwarps = B->wend = J->nwarps;
  B->smem = s->smem;
  B->dyn_smem = J->dyn;
  B->lanes = s->lanes;
  B->kernel = J->k;
  B->launch = J->launch;
  B->resident = 1;
  if (!s->entered) {
    rt_co_make(&s->co, s->stack, STACK, tramp);
    s->entered = 1;
  }
  s->busy = 1;
}

/* Run a resident block to its next barrier or its end. Kept apart so no
 * local of the SM loop lives across the jumps. */
static __attribute__((noinline)) void resume(Slot *s) {
  cur = s;
  rt_fault_block = &s->B;   /* (a fault in it is its: launch.c) */
  rt_co_switch(&home, &s->co);
  cur = NULL;
}

/* One worker's SM: its resident blocks, as many as the occupancy allows. */
static void run_share(unsigned long long w, unsigned long long end, int slot, void *arg) {
  (void)w;
  (void)end;   /* one share per call: W <= workers, so every chunk of W is one share */
  Job *J = arg;
  if (!shares) return;   /* (out of memory: the other SMs run the grid) */
  rt_dev_enter(J->dev);
  Share *sh = &shares[slot];
  unsigned long long want = (unsigned long long)J->per_sm;
  if (want > J->nblocks) want = J->nblocks;
  int n = (int)want;
  if (n > sh->cap) {
    sh->slots = realloc(sh->slots, n * sizeof *sh->slots);
    memset(sh->slots + sh->cap, 0, (n - sh->cap) * sizeof *sh->slots);
    sh->cap = n;
  }
  for (int i = 0; i < n; i++) {
    Slot *s = &sh->slots[i];
    if (!s->stack) {
      s->stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (s->stack == MAP_FAILED) s->stack = NULL;
    }
    if (!s->stack || !grow(&s->smem, &s->nsmem, J->smem_bytes) || !grow(&s->lanes, &s->nlanes, J->lane_bytes)) {
      n = i;   /* fewer resident blocks: slower, still correct */
      break;
    }
    s->busy = 0;
    s->entered = 0;   /* a new launch enters each coroutine afresh */
  }
  job = J;
  unsigned long long lo = 0, hi = 0;   /* blocks taken from the grid, not started yet */
  for (;;) {
    int live = 0;
    for (int i = 0; i < n; i++) {
      Slot *s = &sh->slots[i];
      if (!s->busy && !atomic_load_explicit(J->failed, memory_order_relaxed)) {
        if (lo == hi && !rt_pool_take(&J->next, J->nblocks, J->chunk, J->parts, &lo, &hi)) lo = hi = J->nblocks;
        if (lo < hi) start_block(J, s, lo++);
      }
      if (!s->busy) continue;
      resume(s);
      live += s->busy != 0;
    }
    if (!live && ((lo == hi && atomic_load(&J->next) >= J->nblocks) || atomic_load(J->failed))) break;
    if (n == 0) break;
  }
  if (cu_nred) cu_red_flush(0, 0);   /* the worker's pending reductions (cucc_rt.h) */
}

void rt_sm_run(rt_dev *d, const cu_kernel *k, const char *params, cu_idx3 g, cu_idx3 b, size_t dyn,
               unsigned nthreads, unsigned nwarps, int per_sm, struct cu_launch *launch, _Atomic int *failed) {
  const rt_model *m = &d->model;
  int W = rt_pool_workers();
  if (W > m->sms) W = m->sms;
  pthread_once(&shares_once, shares_init);
  Job J = {0};
  J.dev = d->id;
  J.k = k;
  J.params = params;
  J.g = g;
  J.b = b;
  J.dyn = dyn;
  J.smem_bytes = cu_dyn_smem_off(k) + dyn + CU_SMEM_ALIGN;
  J.lane_bytes = (size_t)k->lane_bytes * nwarps * 32 + 64;
  J.nthreads = nthreads;
  J.nwarps = nwarps;
  J.per_sm = per_sm;
  J.nblocks = (unsigned long long)g.x * g.y * g.z;
  J.launch = launch;
  J.failed = failed;
  J.chunk = rt_pool_chunk(J.nblocks);
  J.parts = W;
  atomic_store(&J.next, 0);
  rt_pool_run(d->id, (unsigned long long)W, 1, run_share, &J);
}

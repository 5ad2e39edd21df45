/* warps.c: a block's warps as coroutines.
 *
 * A block normally runs its warps one after another between barriers
 * (lowering/: each region a loop over the warps). That cannot run a
 * kernel whose warps wait for each other anywhere else: a cuda::pipeline
 * with producer and consumer roles, where consumer warps wait for stages
 * producer warps fill, and producers for stages consumers release. Such a
 * kernel (cu_kernel.wco, decided by the lowering: it reaches a warp wait,
 * cu_warp_wait) runs each warp of a block as a coroutine (co.c) with its
 * own stack: the block function is called once per warp, for warp
 * B->wself, and a warp gives the worker to the next one when it waits at
 * a barrier (cu_barrier) or for a value another warp has still to store
 * (cu_warp_wait). The warps are resumed round-robin.
 *
 * A round in which no warp got past a wait, reached a barrier or ended can
 * never be followed by one that does (a pipeline's counts, in shared
 * memory, change only by the block's warps, and none ran): the block is
 * deadlocked, which a GPU shows as a hang.
 * Here the launch fails, naming kernel and block, with what the warps
 * wait for. */
#include "rt.h"
#include <stdatomic.h>
#include <sys/mman.h>
#include <setjmp.h>

#define WSTACK (256 * 1024)   /* a warp's stack: its frames and lane arrays */
#define WDEPTH 4              /* nested blocks (a child grid run inside a block) */

enum { W_RUN, W_BAR, W_WAIT, W_SPIN, W_DONE };

typedef struct Warp {
  rt_co co;
  cu_block B;                 /* the block's, with wself = this warp */
  char *stack;
  int state;
  unsigned gen;               /* W_BAR: the barrier's generation it waits in */
} Warp;

typedef struct Wsched {       /* one block whose warps this thread runs */
  Warp *w;
  unsigned n, cap;
  rt_co home;                 /* the scheduler's loop (rt_warps_run) */
  Warp *cur;                  /* the warp running */
  unsigned live, arrived, gen;   /* warps not ended; at the barrier; its generation */
  int moved;                  /* something happened this round */
  const cu_kernel *k;
  const char *params;
  jmp_buf stop;               /* where a stopped warp ends the block */
} Wsched;

extern unsigned cu_ck_what;   /* check.c: what --check checks */

static _Thread_local Wsched scheds[WDEPTH];
static _Thread_local int depth;   /* scheds in use on this thread */
static _Thread_local Wsched *ws;  /* the innermost one */

static void warp_main(void) {
  Wsched *s = ws;
  Warp *w = s->cur;
  s->k->fn(&w->B, s->params);
  w->state = W_DONE;
  s->live--;
  s->moved = 1;
  if (s->arrived && s->arrived == s->live) {   /* the barrier waited only for the ones that ended */
    s->arrived = 0;
    s->gen++;
  }
  rt_co_switch(&w->co, &s->home);   /* never resumed */
}

void rt_warps_barrier(const cu_block *B) {
  Wsched *s = ws;
  Warp *w = B->warp;
  s->moved = 1;
  if (++s->arrived == s->live) {   /* the last warp: the others go on */
    s->arrived = 0;
    s->gen++;
    return;
  }
  w->state = W_BAR;
  w->gen = s->gen;
  rt_co_switch(&w->co, &s->home);
  w->state = W_RUN;
}

static int reached(const unsigned *p, unsigned target) {
  return (int)(__atomic_load_n(p, __ATOMIC_ACQUIRE) - target) >= 0;
}

/* Wait until *p reaches target (counting on, modulo 2^32): the pipeline's
 * stage counters (cuda/pipeline). Outside a block of warp coroutines (a
 * wait in another block, or the host's) the worker spins. */
void cu_warp_wait(const unsigned *p, unsigned target) {
  Wsched *s = ws;
  Warp *w = s ? s->cur : NULL;
  if (!reached(p, target)) {
    if (!w) {
      while (!reached(p, target)) sched_yield();
      return;
    }
    /* --check: what this warp did before the wait comes before what the
     * others do while it waits, and what they stored before the count was
     * reached before what it does after; racecheck knows order only as
     * barrier intervals, so the wait ends one and starts another (a race
     * between accesses the wait does not order goes unseen) */
    if (cu_ck_what & CU_CK_RACE) cu_ck_sync(&w->B);
    w->state = W_WAIT;
    do rt_co_switch(&w->co, &s->home);
    while (!reached(p, target));
    w->state = W_RUN;
    s->moved = 1;
  }
  if (w && (cu_ck_what & CU_CK_RACE)) cu_ck_sync(&w->B);
}

/* A turn of a loop waiting for a flag another warp sets: no deadlock can
 * be told while a warp spins (another block, or the host, may set it). */
void cu_warp_yield(void) {
  Wsched *s = ws;
  Warp *w = s ? s->cur : NULL;
  if (!w) return;
  bool ck = cu_ck_what & CU_CK_RACE;
  if (ck) cu_ck_sync(&w->B);   /* (as a wait's, below) */
  w->state = W_SPIN;
  rt_co_switch(&w->co, &s->home);
  w->state = W_RUN;
  if (ck) cu_ck_sync(&w->B);
}

bool rt_warp_stack(uintptr_t sp, uintptr_t *top) {
  Warp *w = ws ? ws->cur : NULL;
  if (!w || sp < (uintptr_t)w->stack || sp >= (uintptr_t)w->stack + WSTACK) return false;
  *top = (uintptr_t)w->stack + WSTACK;
  return true;
}

static bool ready(Wsched *s, unsigned need) {
  if (need > s->cap) {
    Warp *nw = realloc(s->w, need * sizeof *nw);
    if (!nw) return false;
    memset(nw + s->cap, 0, (need - s->cap) * sizeof *nw);
    s->w = nw;
    s->cap = need;
  }
  for (unsigned i = 0; i < need; i++) {
    Warp *w = &s->w[i];
    if (w->stack) continue;
    void *m = mmap(NULL, WSTACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return false;
    w->stack = m;
  }
  return true;
}

static void deadlock(Wsched *s, const cu_block *B) {
  unsigned nb = 0, nw = 0;
  for (unsigned i = 0; i < s->n; i++) {
    nb += s->w[i].state == W_BAR;
    nw += s->w[i].state == W_WAIT;
  }
  fprintf(stderr,
          "cucc: kernel '%s' block (%u,%u,%u): deadlock: %u warp(s) wait at __syncthreads() and %u in a "
          "cuda::pipeline's wait (producer_acquire or consumer_wait), and none can go on: the launch fails "
          "(cudaErrorLaunchFailure)%s\n",
          B->kernel->pretty, B->blockIdx.x, B->blockIdx.y, B->blockIdx.z, nb, nw,
          nw ? "; a warp's lanes run together here, so producers and consumers within one warp wait for each "
               "other (a GPU since Volta interleaves them): give each role whole warps"
             : "");
  rt_launch_failed(B);
}

void rt_warps_run(const cu_kernel *k, cu_block *B, const char *params) {
  if (depth == WDEPTH) {   /* (no deeper nesting: its warps one after another) */
    k->fn(B, params);
    return;
  }
  Wsched *s = &scheds[depth], *up = ws;
  const cu_block *fb = rt_fault_block;
  if (!ready(s, B->nwarps)) {
    fprintf(stderr, "cucc: kernel '%s': no memory for its warps' stacks: the launch fails\n", k->pretty);
    rt_launch_failed(B);
    return;
  }
  depth++;
  ws = s;
  s->n = s->live = B->nwarps;
  s->arrived = s->gen = 0;
  s->k = k;
  s->params = params;
  for (unsigned i = 0; i < s->n; i++) {
    Warp *w = &s->w[i];
    w->B = *B;
    w->B.wself = i;
    w->B.warp = w;
    w->B.resident = 1;   /* (CU_BARRIER calls cu_barrier) */
    w->B.stop = &s->stop;
    w->state = W_RUN;
    rt_co_make(&w->co, w->stack, WSTACK, warp_main);
  }
  if (!_setjmp(s->stop)) {   /* a warp stopped (an assert, a fault) ends the block here */
    while (s->live) {
      s->moved = 0;
      for (unsigned i = 0; i < s->n; i++) {
        Warp *w = &s->w[i];
        if (w->state == W_DONE || (w->state == W_BAR && w->gen == s->gen)) continue;
        if (w->state != W_WAIT && w->state != W_SPIN) s->moved = 1;
        s->cur = w;
        rt_fault_block = &w->B;
        rt_co_switch(&s->home, &w->co);
      }
      bool spin = false;
      for (unsigned i = 0; i < s->n; i++) spin |= s->w[i].state == W_SPIN;
      if (s->live && !s->moved && spin) sched_yield();   /* (waiting, maybe for another thread) */
      else if (s->live && !s->moved) {
        deadlock(s, B);
        break;
      }
    }
  }
  s->cur = NULL;
  rt_fault_block = fb;
  ws = up;
  depth--;
}

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
 * A kernel of batched atomics (lowering/batch.c) runs so too: a warp
 * stops at such an atomicAdd (cu_warps_add), and after a round, in which
 * every other warp ran until it stopped, waited or ended, the stopped
 * warps' atomics at one address are one fetch-and-add of their sum, each
 * warp given the old value plus the operands of the warps before it.
 * That pays where the atomic's cache line would move between cores for
 * each warp (a filter on a 16-core Xeon 4x faster, on 2 of its cores 1.2x),
 * not where a switch between warps costs more than the atomic saved (2.2x
 * slower on a 2-core Zen 4 VM): each worker times blocks both ways and
 * takes the faster (rt_warps_batched); run as one call, a block's warps
 * run one after another, each atomic at once.
 * CUCC_BATCH=1 runs every block so, CUCC_BATCH=0 none (tests, measures).
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

enum { W_RUN, W_BAR, W_WAIT, W_SPIN, W_ADD, W_DONE };

typedef struct Warp {
  rt_co co;
  cu_block B;                 /* the block's, with wself = this warp */
  char *stack;
  int state;
  unsigned gen;               /* W_BAR: the barrier's generation it waits in */
  void *ap;                   /* W_ADD: the address, its size, the operand; the old value */
  int asz;
  unsigned long long av, ar;
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

/* may warp w run in this round (runnable, or to test its wait again)? */
static bool turn(Wsched *s, Warp *w) {
  return w->state != W_DONE && w->state != W_ADD && !(w->state == W_BAR && w->gen == s->gen);
}

/* the first warp from index j on that may run in this round, or NULL */
static Warp *next_turn(Wsched *s, unsigned j) {
  for (; j < s->n; j++)
    if (turn(s, &s->w[j])) return &s->w[j];
  return NULL;
}

/* the worker goes from coroutine `from` to warp x */
static void go(Wsched *s, rt_co *from, Warp *x) {
  if (x->state != W_WAIT && x->state != W_SPIN) s->moved = 1;
  s->cur = x;
  rt_fault_block = &x->B;
  rt_co_switch(from, &x->co);
}

/* Warp w stops: the worker goes straight to the next warp of the round
 * that may run, or back to the scheduler after the last (one switch a
 * stop, not two: a switch costs an atomic's time, warps.c's batches) */
static void away(Wsched *s, Warp *w) {
  Warp *x = next_turn(s, (unsigned)(w - s->w) + 1);
  if (x) go(s, &w->co, x);
  else rt_co_switch(&w->co, &s->home);
}

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
  away(s, w);   /* never resumed */
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
  away(s, w);
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
    do away(s, w);
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
  away(s, w);
  w->state = W_RUN;
  if (ck) cu_ck_sync(&w->B);
}

/* What a worker knows of the kernel of batched atomics it runs: whether
 * batching pays depends on the machine (a switch between warps costs 13
 * ns on one 16-core Xeon, 25 on a 2-core Zen 4 VM) and on the contention
 * (how many workers take turns at the line): measured. Of every 1024
 * blocks a worker runs, the first 16 alternate as coroutines and not, each
 * timed; the rest take the faster. A block after one that reached fewer
 * than two batched atomics runs as one call. */
typedef struct Wb {
  const cu_kernel *k;
  unsigned n;                 /* its blocks run here */
  unsigned adds;              /* batched atomics the last block reached */
  double t[2];                /* sampled seconds, one call (0) and coroutines (1) */
  unsigned c[2];              /* ... and blocks */
} Wb;
static _Thread_local Wb wb;

static int batch_mode(void) {   /* CUCC_BATCH: 1 always, 0 never, -1 as it pays */
  static _Atomic int m = -2;   /* (read once; workers may race to read it, with one answer) */
  if (m == -2) {
    const char *e = getenv("CUCC_BATCH");
    m = e && (*e == '0' || *e == '1') && !e[1] ? *e - '0' : -1;
  }
  return m;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void rt_warps_batched(const cu_kernel *k, cu_block *B, const char *params) {
  int m = batch_mode();
  bool sample = false;
  if (m < 0) {
    if (wb.k != k) wb = (Wb){.k = k};
    unsigned i = wb.n++ % 1024;
    if (!i) wb.t[0] = wb.t[1] = wb.c[0] = wb.c[1] = 0;
    if (wb.n > 1 && wb.adds < 2) m = 0;
    else if (i < 16) m = (int)(i & 1), sample = true;
    else m = wb.c[0] && wb.c[1] && wb.t[1] * wb.c[0] < wb.t[0] * wb.c[1];
  }
  wb.adds = 0;
  double t0 = sample ? now_s() : 0;
  if (m) rt_warps_run(k, B, params);
  else k->fn(B, params);   /* (the enclosing warps hidden by the caller: run_blocks, rt_run_block) */
  if (sample) {
    wb.t[m] += now_s() - t0;
    wb.c[m]++;
  }
}

unsigned long long cu_warps_add(void *p, unsigned long long v, int size) {
  Wsched *s = ws;
  Warp *w = s ? s->cur : NULL;
  wb.adds++;
  if (!w) return size == 4 ? __atomic_fetch_add((unsigned *)p, (unsigned)v, __ATOMIC_RELAXED)
                           : __atomic_fetch_add((unsigned long long *)p, v, __ATOMIC_RELAXED);
  w->ap = p;
  w->asz = size;
  w->av = v;
  w->state = W_ADD;
  away(s, w);
  w->state = W_RUN;
  return w->ar;
}

/* the atomics of the warps stopped at one (cu_warps_add), per address */
static void add_all(Wsched *s) {
  for (unsigned i = 0; i < s->n; i++) {
    Warp *w = &s->w[i];
    if (w->state != W_ADD) continue;
    unsigned long long sum = 0, old;
    for (unsigned j = i; j < s->n; j++)
      if (s->w[j].state == W_ADD && s->w[j].ap == w->ap && s->w[j].asz == w->asz) sum += s->w[j].av;
    if (w->asz == 4) old = __atomic_fetch_add((unsigned *)w->ap, (unsigned)sum, __ATOMIC_RELAXED);
    else old = __atomic_fetch_add((unsigned long long *)w->ap, sum, __ATOMIC_RELAXED);
    for (unsigned j = i; j < s->n; j++) {
      Warp *x = &s->w[j];
      if (x->state != W_ADD || x->ap != w->ap || x->asz != w->asz) continue;
      x->ar = w->asz == 4 ? (unsigned)old : old;
      old += x->av;
      x->state = W_RUN;
    }
  }
}

/* A block of another kernel run inside one of these warps (a child grid):
 * its warps are not these coroutines. */
void *rt_warps_out(void) {
  Wsched *s = ws;
  ws = NULL;
  return s;
}
void rt_warps_in(void *s) { ws = s; }

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
    w->B.wend = i + 1;
    w->B.worder = NULL;
    w->B.warp = w;
    w->B.resident = 1;   /* (CU_BARRIER calls cu_barrier) */
    w->B.stop = &s->stop;
    w->state = W_RUN;
    rt_co_make(&w->co, w->stack, WSTACK, warp_main);
  }
  if (!_setjmp(s->stop)) {   /* a warp stopped (an assert, a fault) ends the block here */
    while (s->live) {
      s->moved = 0;
      /* (the warps after x run too, by away: the last comes back) */
      for (Warp *x = next_turn(s, 0); x; x = next_turn(s, (unsigned)(s->cur - s->w) + 1)) go(s, &s->home, x);
      bool spin = false, add = false;
      for (unsigned i = 0; i < s->n; i++) {
        spin |= s->w[i].state == W_SPIN;
        add |= s->w[i].state == W_ADD;
      }
      if (add) {
        add_all(s);
        s->moved = 1;
      }
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

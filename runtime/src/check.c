/* check.c: the run-time half of `cucc --check`, a compute-sanitizer for
 * the CPU. The checked build routes every memory access of device code
 * through cu_ck() (cucc_dev.h: an inline fast path, then cu_ck_slow here).
 *  - memcheck: a registry of live allocations (cudaMalloc, cudaMallocHost,
 *    managed memory, __device__/__constant__ objects) decides whether an
 *    address is inside one; a bad access is reported with the nearest
 *    allocation, the launch fails (cudaErrorLaunchFailure at the next
 *    synchronization) and the access goes to a scratch buffer instead;
 *  - initcheck: a byte per byte of each cudaMalloc allocation says whether
 *    it was written (by a kernel, cudaMemcpy or cudaMemset);
 *  - racecheck: a shadow per 4-byte word of a block's shared memory holds
 *    the last writer and up to two readers with the barrier interval
 *    ("epoch") they ran in; two different threads in one interval, one of
 *    them writing, are a hazard. Threads of one warp are ordered by
 *    __syncwarp() (a per-warp count in the shadow);
 *  - synccheck: divergent barriers (cu_fault) and *_sync masks that name
 *    lanes which do not execute the call.
 * Reports look like compute-sanitizer's; at exit "ERROR SUMMARY: N errors",
 * and a non-zero exit status if N > 0. */
#include "rt.h"
#include "cucc_dev.h"
#include <link.h>
#include <stdatomic.h>
#include <unistd.h>

unsigned cu_ck_what, cu_ck_gen;
_Thread_local cu_ckc cu_ck_last[CU_CK_NLAST];
static _Thread_local unsigned nlast;   /* the entry of cu_ck_last to replace next */

static atomic_ulong nerr;
static pthread_mutex_t pmu = PTHREAD_MUTEX_INITIALIZER;   /* one report at a time */
enum { MAX_SHOWN = 100 };

/* ---- reports ---- */
static const char *commas(size_t v, char *b) {
  char t[32];
  int n = snprintf(t, sizeof t, "%zu", v), k = 0;
  for (int i = 0; i < n; i++) {
    if (i && (n - i) % 3 == 0) b[k++] = ',';
    b[k++] = t[i];
  }
  b[k] = 0;
  return b;
}

/* Counts an error; false when too many were shown already. Holds pmu when
 * it returns true: the caller prints, then calls done(). */
static bool begin(void) {
  unsigned long n = atomic_fetch_add(&nerr, 1) + 1;
  if (n > MAX_SHOWN) {
    if (n == MAX_SHOWN + 1) fprintf(stderr, "========= (more errors are counted, not shown)\n");
    return false;
  }
  pthread_mutex_lock(&pmu);
  return true;
}

static void done(void) {
  fprintf(stderr, "=========\n");
  pthread_mutex_unlock(&pmu);
}

static void where(const cu_block *B, unsigned tid, const char *file, int line) {
  unsigned dx = B->blockDim.x, dy = B->blockDim.y;
  fprintf(stderr, "=========     at %s in %s:%d\n", B->kernel->pretty, file, line);
  fprintf(stderr, "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n", tid % dx, tid / dx % dy, tid / (dx * dy),
          B->blockIdx.x, B->blockIdx.y, B->blockIdx.z);
}

static const char *kind(const cu_site *s) { return s->kind & CU_WR ? "write" : "read"; }

/* ---- the allocation registry, sorted by address ---- */
typedef struct CkA {
  uintptr_t lo;
  size_t n;
  int kind;                   /* RT_CK_* */
  unsigned char *init;        /* initcheck: written bytes (device memory) */
  const char *name;           /* objects: the variable */
} CkA;

static CkA *as;
static size_t nas, cap;
static pthread_rwlock_t alock = PTHREAD_RWLOCK_INITIALIZER;

/* index of the last allocation starting at or below a; nas if none */
static size_t a_below(uintptr_t a) {
  size_t lo = 0, hi = nas;
  while (lo < hi) {
    size_t m = (lo + hi) / 2;
    if (as[m].lo <= a) lo = m + 1;
    else hi = m;
  }
  return lo ? lo - 1 : nas;
}

void rt_ck_alloc(void *p, size_t n, int kind, const char *name) {
  if (!cu_ck_what || !p) return;
  pthread_rwlock_wrlock(&alock);
  if (nas == cap) {
    cap = cap ? 2 * cap : 64;
    as = realloc(as, cap * sizeof *as);
  }
  size_t i = a_below((uintptr_t)p);
  i = i == nas ? 0 : i + 1;
  memmove(as + i + 1, as + i, (nas - i) * sizeof *as);
  as[i] = (CkA){(uintptr_t)p, n, kind, NULL, name};
  if ((cu_ck_what & CU_CK_INIT) && kind == RT_CK_DEV) as[i].init = calloc(n ? n : 1, 1);
  nas++;
  pthread_rwlock_unlock(&alock);
}

void cu_ck_object(const void *p, size_t n, const char *name) { rt_ck_alloc((void *)p, n, RT_CK_OBJ, name); }

static const char *api_of(int kind) {
  return kind == RT_CK_HOST ? "cudaFreeHost" : "cudaFree";
}

/* A free by the API of `kind`: true if p is a live allocation of that kind
 * (then forgotten); else reported. */
bool rt_ck_free(void *p, int kind) {
  if (!cu_ck_what || !p) return true;
  pthread_rwlock_wrlock(&alock);
  size_t i = a_below((uintptr_t)p);
  bool ok = i < nas && as[i].lo == (uintptr_t)p && (as[i].kind == RT_CK_HOST) == (kind == RT_CK_HOST) &&
            as[i].kind != RT_CK_OBJ;
  if (ok) {
    free(as[i].init);
    memmove(as + i, as + i + 1, (nas - i - 1) * sizeof *as);
    nas--;
    __atomic_fetch_add(&cu_ck_gen, 1, __ATOMIC_RELAXED);   /* invalidates every worker's cached allocation */
  }
  pthread_rwlock_unlock(&alock);
  if (!ok && (cu_ck_what & CU_CK_MEM) && begin()) {
    fprintf(stderr, "========= Invalid %s() of address %p: not the start of a live allocation %s\n", api_of(kind), p,
            kind == RT_CK_HOST ? "from cudaMallocHost" : "from cudaMalloc (freed already, or never allocated)");
    done();
  }
  return ok;
}

/* cudaMemcpy/cudaMemset wrote [p, p+n): initcheck marks it */
void rt_ck_written(const void *p, size_t n) {
  if (!(cu_ck_what & CU_CK_INIT) || !n) return;
  pthread_rwlock_rdlock(&alock);
  size_t i = a_below((uintptr_t)p);
  if (i < nas && as[i].init && (uintptr_t)p < as[i].lo + as[i].n) {
    size_t off = (uintptr_t)p - as[i].lo;
    memset(as[i].init + off, 1, n < as[i].n - off ? n : as[i].n - off);
  }
  pthread_rwlock_unlock(&alock);
}

/* memcheck of the memory API: [p, p+n) that starts inside an allocation
 * must end inside it (CUDA answers cudaErrorInvalidValue); false if not,
 * reported */
bool rt_ck_range(const void *p, size_t n, const char *api) {
  if (!(cu_ck_what & CU_CK_MEM) || !n) return true;
  pthread_rwlock_rdlock(&alock);
  size_t i = a_below((uintptr_t)p);
  bool in = i < nas && (uintptr_t)p < as[i].lo + as[i].n, ok = !in || n <= as[i].lo + as[i].n - (uintptr_t)p;
  size_t size = in ? as[i].n : 0, off = in ? (uintptr_t)p - as[i].lo : 0;
  pthread_rwlock_unlock(&alock);
  if (!ok && begin()) {
    char b1[40], b2[40];
    fprintf(stderr, "========= Invalid %s of %s bytes at offset %zu of an allocation of %s bytes (past its end)\n", api,
            commas(n, b1), off, commas(size, b2));
    done();
  }
  return ok;
}

/* A thread that runs blocks of another device's grid than before forgets
 * the allocations it found allowed for the one before. */
void rt_ck_enter(int dev) {
  static _Thread_local int last = -1;
  if (!cu_ck_what || dev == last) return;
  memset(cu_ck_last, 0, sizeof cu_ck_last);
  last = dev;
}

void rt_ck_reset(void) {
  pthread_rwlock_wrlock(&alock);
  size_t k = 0;
  for (size_t i = 0; i < nas; i++) {
    if (as[i].kind == RT_CK_OBJ) as[k++] = as[i];
    else free(as[i].init);
  }
  nas = k;
  __atomic_fetch_add(&cu_ck_gen, 1, __ATOMIC_RELAXED);
  pthread_rwlock_unlock(&alock);
}

/* ---- a bad access ---- */
static _Thread_local char *scr;
static _Thread_local size_t nscr;

/* where a bad access goes instead: it must not corrupt the program */
static void *scratch(const cu_site *s) {
  if (s->size > nscr) {
    free(scr);
    nscr = s->size < 64 ? 64 : s->size;
    scr = aligned_alloc(64, (nscr + 63) / 64 * 64);
  }
  memset(scr, 0, nscr);
  return scr;
}

static void *bad(const cu_block *B, unsigned tid, uintptr_t a, const cu_site *s, const char *space, const char *why) {
  rt_launch_failed(B);
  if (begin()) {
    fprintf(stderr, "========= Invalid %s %s of size %u bytes\n", space, kind(s), s->size);
    where(B, tid, s->file, s->line);
    if (a) fprintf(stderr, "=========     Address 0x%llx %s\n", (unsigned long long)a, why);
    else fprintf(stderr, "=========     %s\n", why);
    if (!strcmp(space, "__global__") && strstr(why, "out of bounds")) {
      /* the nearest allocation, before or after the address */
      pthread_rwlock_rdlock(&alock);
      size_t i = a_below(a);
      const CkA *best = NULL;
      size_t dist = 0;
      bool after = false;
      if (i < nas && a >= as[i].lo + as[i].n) {
        best = &as[i];
        dist = a - (as[i].lo + as[i].n) + 1;
        after = true;
      }
      size_t j = i == nas ? 0 : i + 1;
      if (j < nas && (!best || as[j].lo - a < dist)) {
        best = &as[j];
        dist = as[j].lo - a;
        after = false;
      }
      if (best) {
        char b1[40], b2[40];
        fprintf(stderr, "=========     and is %s bytes %s the nearest allocation at 0x%llx of size %s bytes%s%s%s\n",
                commas(dist, b1), after ? "after" : "before", (unsigned long long)best->lo, commas(best->n, b2),
                best->name ? " (" : "", best->name ? best->name : "", best->name ? ")" : "");
      }
      pthread_rwlock_unlock(&alock);
    }
    done();
  }
  return scratch(s);
}

/* ---- racecheck: the shadow of one shared memory buffer ----
 * (its types are in cucc_dev.h: cu_ck() reads it for its fast path) */
typedef cu_ckacc Acc;
typedef cu_ckword Word;
typedef cu_ckshadow Shadow;

static Shadow *shadows;
static pthread_mutex_t smu = PTHREAD_MUTEX_INITIALIZER;
_Thread_local Shadow *cu_ck_sh;   /* the shadow this worker used last */
#define NOBODY CU_CK_NOBODY

static Shadow *shadow(const cu_block *B) {
  if (cu_ck_sh && cu_ck_sh->smem == B->smem) return cu_ck_sh;
  pthread_mutex_lock(&smu);
  Shadow *s = shadows;
  while (s && s->smem != B->smem) s = s->next;
  if (!s) {
    s = calloc(1, sizeof *s);
    s->smem = B->smem;
    s->next = shadows;
    shadows = s;
  }
  pthread_mutex_unlock(&smu);
  return cu_ck_sh = s;
}

void cu_ck_block(const cu_block *B) {
  /* (a block of warp coroutines, warps.c: its first warp starts the block) */
  if (!(cu_ck_what & CU_CK_RACE) || (B->warp && B->wself)) return;
  Shadow *s = shadow(B);
  size_t nw = (cu_dyn_smem_off(B->kernel) + B->dyn_smem + 3) / 4;
  if (nw > s->nw) {
    free(s->w);
    free(s->own);
    s->w = calloc(nw, sizeof *s->w);   /* epoch 0: never a running block's */
    s->own = calloc(nw, sizeof *s->own);
    s->nw = nw;
  }
  if (!s->log) s->log = malloc(CU_CK_NLOG * sizeof *s->log);
  s->epoch++;   /* epochs only meet words of their own shadow */
  memset(s->sw, 0, sizeof s->sw);
}

void cu_ck_sync(const cu_block *B) {
  if (cu_ck_what & CU_CK_RACE) shadow(B)->epoch++;
}

/* a read by thread tid in the current interval: the first two readers */
static void read_rec(Shadow *sh, Word *w, unsigned tid, const cu_site *s, uint32_t mb) {
  const Acc me = {tid, sh->sw[tid / 32 % 32] | mb << 28, s};
  if (w->rep != sh->epoch) {
    w->rep = sh->epoch;
    w->r1 = me;
    w->r2.tid = NOBODY;
  } else if (w->r1.tid == tid) w->r1.sw |= mb << 28;
  else if (w->r2.tid == tid) w->r2.sw |= mb << 28;
  else if (w->r2.tid == NOBODY) w->r2 = me;
}

/* thread tid's write of bytes mb of word w (with its own earlier ones) */
static void write_rec(Shadow *sh, Word *w, unsigned tid, const cu_site *s, uint32_t mb) {
  uint32_t old = w->wep == sh->epoch && w->w.tid == tid ? w->w.sw & ~CU_CK_SWMASK : 0;
  w->wep = sh->epoch;
  w->w = (Acc){tid, sh->sw[tid / 32 % 32] | mb << 28 | old, s};
}

/* do an earlier access a and bytes mb of the same word meet? */
static bool meet(const Acc *a, uint32_t mb) { return (a->sw >> 28 & mb) != 0; }

/* The logged ranges of this interval into the words, in their order; from
 * now on the interval is checked word by word (pep). None of them can be a
 * hazard (`own` said so), so they are only recorded. */
void cu_ck_flush(Shadow *sh) {
  const uint64_t E = sh->epoch;
  if (sh->logep == E)
    for (uint32_t i = 0; i < sh->nlog; i++) {
      const cu_ckrange *r = &sh->log[i];
      for (uint32_t j = 0; j < r->m; j++)
        for (uint32_t l = 0; l < r->n; l++) {
          size_t off = r->off + (size_t)((int64_t)j * r->mstep) + (size_t)l * r->step;
          unsigned tid = r->tid0 + l * r->tstep;
          for (size_t k = off / 4; k <= (off + r->s->size - 1) / 4 && k < sh->nw; k++) {
            uint32_t mb = cu_ck_bytes(off, r->s->size);
            if (r->s->kind & CU_RD) read_rec(sh, &sh->w[k], tid, r->s, mb);
            if (r->s->kind & CU_WR) write_rec(sh, &sh->w[k], tid, r->s, mb);
          }
        }
    }
  sh->nlog = 0;
  sh->pep = E;
}

/* one report per pair of sites and hazard */
typedef struct Seen { const void *a, *b; int h; } Seen;
static Seen seen[512];
static int nseen;

/* a byte of the read that holds data and was never written (a record's
 * padding, s->data, does not count) */
static bool unwritten(const unsigned char *init, const cu_site *s) {
  if (!s->data) return true;
  for (unsigned k = 0; k < s->size; k++)
    if (s->data[k] && !init[k]) return true;
  return false;
}

static bool first_time(const void *a, const void *b, int h) {
  pthread_mutex_lock(&smu);
  bool f = true;
  for (int i = 0; i < nseen && f; i++) f = !(seen[i].a == a && seen[i].b == b && seen[i].h == h);
  if (f && nseen < 512) seen[nseen++] = (Seen){a, b, h};
  pthread_mutex_unlock(&smu);
  return f;
}

static void thr(const cu_block *B, unsigned tid) {
  unsigned dx = B->blockDim.x, dy = B->blockDim.y;
  fprintf(stderr, "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n", tid % dx, tid / dx % dy, tid / (dx * dy),
          B->blockIdx.x, B->blockIdx.y, B->blockIdx.z);
}

static void hazard(const cu_block *B, const Acc *prev, bool pw, unsigned tid, const cu_site *s, bool cw,
                   size_t off) {
  static const char *const names[] = {"read-after-write", "write-after-read", "write-after-write"};
  int h = pw && cw ? 2 : pw ? 0 : 1;
  if (!first_time(prev->s, s, h) || !begin()) return;
  fprintf(stderr, "========= Error: Race reported between %s access at %s in %s:%d\n", pw ? "Write" : "Read",
          B->kernel->pretty, prev->s->file, prev->s->line);
  thr(B, prev->tid);
  fprintf(stderr, "=========     and %s access at %s in %s:%d\n", cw ? "Write" : "Read", B->kernel->pretty, s->file,
          s->line);
  thr(B, tid);
  fprintf(stderr, "=========     (%s hazard on __shared__ memory at offset 0x%zx, no barrier between them)\n", names[h],
          off);
  done();
}

/* Do the accesses of threads a (earlier, warp-sync count asw) and the
 * current thread t conflict? Threads of one warp are ordered by __syncwarp. */
static bool apart(const Shadow *sh, const Acc *a, unsigned t) {
  return a->tid != NOBODY && a->tid != t && (a->tid / 32 != t / 32 || (a->sw & CU_CK_SWMASK) == sh->sw[t / 32]);
}

static void race(const cu_block *B, unsigned tid, size_t off, const cu_site *s) {
  Shadow *sh = shadow(B);
  if (!sh->w) return;
  cu_ck_flush(sh);   /* the logged reads first: readers keep their order */
  uint64_t E = sh->epoch;
  for (size_t i = off / 4; i <= (off + s->size - 1) / 4 && i < sh->nw; i++) {
    Word *w = &sh->w[i];
    uint32_t mb = cu_ck_bytes(off, s->size);
    if (s->kind & CU_RD) {
      if (w->wep == E && apart(sh, &w->w, tid) && meet(&w->w, mb)) {
        hazard(B, &w->w, true, tid, s, false, off);
        return;
      }
      read_rec(sh, w, tid, s, mb);
    }
    if (s->kind & CU_WR) {
      if (w->wep == E && apart(sh, &w->w, tid) && meet(&w->w, mb)) {
        hazard(B, &w->w, true, tid, s, true, off);
        return;
      }
      if (w->rep == E) {
        const Acc *r = w->r1.tid != tid ? &w->r1 : &w->r2;
        /* one line of one warp (s[t] = s[t + 1]) loads in every lane
         * before it stores, on a GPU: not a hazard, though lanes run it
         * one after another here */
        if (apart(sh, r, tid) && meet(r, mb) &&
            !(r->tid / 32 == tid / 32 && r->s->line == s->line && !strcmp(r->s->file, s->file))) {
          hazard(B, r, false, tid, s, true, off);
          return;
        }
      }
      write_rec(sh, w, tid, s, mb);
    }
  }
}

/* ---- the slow path of every checked access ---- */
void *cu_ck_slow(const cu_block *B, unsigned tid, void *p, const cu_site *s, const void *obj, size_t objn) {
  uintptr_t a = (uintptr_t)p;
  bool mis = (a & (s->align - 1u)) != 0;
  if (s->space == CU_SP_OBJ) {
    pthread_rwlock_rdlock(&alock);
    size_t i = a_below((uintptr_t)obj);
    bool global = i < nas && as[i].lo == (uintptr_t)obj;
    pthread_rwlock_unlock(&alock);
    const char *sp = global ? "__global__" : "__local__";
    if (a < (uintptr_t)obj || a + s->size > (uintptr_t)obj + objn)
      return bad(B, tid, a, s, sp, "is out of bounds of its variable");
    return mis ? bad(B, tid, a, s, sp, "is misaligned") : p;
  }
  uintptr_t slo = (uintptr_t)B->smem, shi = slo + cu_dyn_smem_off(B->kernel) + B->dyn_smem;
  if (s->space == CU_SP_SHARED || (a >= slo && a < shi)) {
    if (a < slo || a + s->size > shi) {
      char why[96];
      snprintf(why, sizeof why, "(shared offset %lld) is out of bounds of the block's %zu bytes of shared memory",
               (long long)(a - slo), (size_t)(shi - slo));
      return bad(B, tid, a, s, "__shared__", why);
    }
    if (mis) return bad(B, tid, a, s, "__shared__", "is misaligned");
    if (cu_ck_what & CU_CK_RACE) race(B, tid, a - slo, s);
    return p;
  }
  pthread_rwlock_rdlock(&alock);
  size_t i = a_below(a);
  bool in = i < nas && a + s->size <= as[i].lo + as[i].n;
  unsigned char *init = in ? as[i].init : NULL;
  size_t off = in ? a - as[i].lo : 0;
  cu_ckc hit = in ? (cu_ckc){as[i].lo, as[i].lo + as[i].n, __atomic_load_n(&cu_ck_gen, __ATOMIC_RELAXED), init}
                  : (cu_ckc){0};
  bool dev = in && as[i].kind == RT_CK_DEV;
  pthread_rwlock_unlock(&alock);
  /* another device's memory, which this one may not reach: a GPU faults
   * (peer access is cudaDeviceEnablePeerAccess's, or its pool's) */
  unsigned long long acc = 0;
  int owner = dev && rt_ndev() > 1 ? rt_alloc_dev((void *)hit.lo, &acc) : -1, me = owner >= 0 ? rt_launch_dev(B) : -1;
  if (owner >= 0 && !(acc >> me & 1)) {
    char why[160];
    snprintf(why, sizeof why,
             "is in device %d's memory, which device %d may not access (cudaDeviceEnablePeerAccess, "
             "cudaMemPoolSetAccess)", owner, me);
    return bad(B, tid, a, s, "__global__", why);
  }
  if (in) cu_ck_last[nlast++ % CU_CK_NLAST] = hit;   /* (a thread's cache is dropped when it works for another device) */
  if (in) {
    if (mis) return bad(B, tid, a, s, "__global__", "is misaligned");
    if (init && (s->kind & CU_RD) && memchr(init + off, 0, s->size) && unwritten(init + off, s)) {
      if (first_time(s, NULL, 3)) {
        if (begin()) {
          fprintf(stderr, "========= Uninitialized __global__ memory read of size %u bytes\n", s->size);
          where(B, tid, s->file, s->line);
          fprintf(stderr, "=========     Address 0x%llx (offset %zu of an allocation of %zu bytes never written)\n",
                  (unsigned long long)a, off, as[i].n);
          done();
        }
      }
    }
    if (init && (s->kind & CU_WR)) memset(init + off, 1, s->size);   /* the allocation lives: the kernel uses it */
    return p;
  }
  /* device memory outside every allocation (arena.c's memory is never a
   * stack, though a worker's stack may lie just below it) */
  int fd;
  unsigned long long aoff;
  if (rt_arena_where((const void *)a, &fd, &aoff)) return bad(B, tid, a, s, "__global__", "is out of bounds");
  /* local memory reached through a pointer: this thread's stack (a
   * worker's, or an SM slot's coroutine stack) or the block's per-thread
   * storage */
  char probe;
  uintptr_t sp = (uintptr_t)&probe;
  if ((a >= sp && a < sp + ((size_t)8 << 20)) ||
      (a >= (uintptr_t)B->lanes && a < (uintptr_t)B->lanes + (size_t)B->kernel->lane_bytes * B->nwarps * 32))
    return p;
  return bad(B, tid, a, s, "__global__", "is out of bounds");
}

long long cu_ck_index(const cu_block *B, unsigned tid, long long i, long long n, const cu_site *s) {
  if (i >= 0 && i < n) return i;
  char why[96];
  snprintf(why, sizeof why, "Index %lld of a local array of %lld elements is out of bounds", i, n);
  bad(B, tid, 0, s, "__local__", why);
  return 0;
}

/* ---- synccheck ---- */
static void badmask(const cu_block *B, unsigned tid, unsigned mask, unsigned act, const char *what, const char *file,
                    int line) {
  rt_launch_failed(B);
  if (!first_time(file, (void *)(uintptr_t)line, 4) || !begin()) return;
  fprintf(stderr, "========= Barrier error detected: invalid mask of %s\n", what);
  where(B, tid, file, line);
  unsigned l = tid % 32;
  if (!(mask >> l & 1))
    fprintf(stderr, "=========     mask 0x%08x does not name the calling lane %u\n", mask, l);
  else
    fprintf(stderr, "=========     mask 0x%08x names lanes 0x%08x that do not execute it (executing: 0x%08x)\n", mask,
            mask & ~act, act);
  done();
}

/* the lanes of warp w that are threads of the block: a mask may name the
 * others, past a partial warp's last thread (a full 0xffffffff in a block
 * of 80: compute-sanitizer's synccheck reports nothing on an H200) */
static unsigned ck_lanes(const cu_block *B, unsigned w) {
  unsigned n = B->nthreads - w * 32;
  return n >= 32 ? ~0u : (1u << n) - 1;
}

void cu_ck_mask(const cu_block *B, unsigned w, const unsigned *mask, unsigned act, const char *file, int line) {
  if (!(cu_ck_what & CU_CK_SYNC)) return;
  unsigned in = ck_lanes(B, w);
  for (unsigned l = 0; l < 32; l++)
    if (act >> l & 1 && ((mask[l] & ~act & in) || !(mask[l] >> l & 1))) {
      badmask(B, w * 32 + l, mask[l], act, "a warp-synchronous (*_sync) intrinsic", file, line);
      return;
    }
}

void cu_ck_syncwarp(const cu_block *B, unsigned tid, unsigned mask, unsigned act, const char *file, int line) {
  if ((cu_ck_what & CU_CK_SYNC) && ((mask & ~act & ck_lanes(B, tid / 32)) || !(mask >> (tid % 32) & 1)))
    badmask(B, tid, mask, act, "__syncwarp()", file, line);
  if (cu_ck_what & CU_CK_RACE) {
    Shadow *sh = shadow(B);
    cu_ck_flush(sh);
    sh->sw[tid / 32 % 32]++;
  }
}

/* a failed device assert in a checked program: memcheck's report, as
 * compute-sanitizer gives it on an H200 (one per failing thread, counted;
 * the assertion's own line is printed as in any program) */
void rt_ck_assert(const cu_block *B, unsigned tid, const char *file, int line) {
  if (!(cu_ck_what & CU_CK_MEM) || !begin()) return;
  fprintf(stderr, "========= Warp assert\n");
  where(B, tid, file, line);
  done();
}

/* cu_fault in a checked program: a sanitizer report, counted */
bool rt_ck_fault(const cu_block *B, unsigned tid, const char *file, int line, const char *msg) {
  if (!cu_ck_what) return false;
  if (begin()) {
    fprintf(stderr, "========= Barrier error detected: %s\n", msg);
    where(B, tid, file, line);
    done();
  }
  return true;
}

/* ---- at exit ---- */
static void summary(void) {
  if (cu_ck_what & CU_CK_LEAK) {
    size_t bytes = 0, n = 0;
    for (size_t i = 0; i < nas; i++) {
      if (as[i].kind == RT_CK_OBJ || as[i].kind == RT_CK_RT) continue;
      char b[40];
      if (begin()) {
        fprintf(stderr, "========= Leaked %s bytes at 0x%llx (%s, never freed)\n", commas(as[i].n, b),
                (unsigned long long)as[i].lo, as[i].kind == RT_CK_HOST ? "cudaMallocHost" : "cudaMalloc");
        done();
      }
      bytes += as[i].n;
      n++;
    }
    if (n) {
      char b[40];
      fprintf(stderr, "========= LEAK SUMMARY: %s bytes leaked in %zu allocations\n", commas(bytes, b), n);
    }
  }
  unsigned long n = atomic_load(&nerr);
  fprintf(stderr, "========= ERROR SUMMARY: %lu error%s\n", n, n == 1 ? "" : "s");
  if (n) {
    fflush(NULL);
    _exit(1);
  }
}

/* The program's read-only data (string literals a kernel indexes, the
 * tables of cucc's headers and runtime: curand's skip-ahead), which a GPU
 * holds in its constant and global memory: valid to read. (The first
 * object dl_iterate_phdr reports is the program itself.) */
static int ro_seg(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W))
      rt_ck_alloc((void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, RT_CK_RT, "the program's constant data");
  }
  return 1;
}

void cu_check_init(unsigned what) {
  bool first = !cu_ck_what;
  if (first) {
    atexit(summary);
    fprintf(stderr, "========= CUCC CHECK (%s%s%s%s%s)\n", what & CU_CK_MEM ? " memcheck" : "",
            what & CU_CK_RACE ? " racecheck" : "", what & CU_CK_SYNC ? " synccheck" : "",
            what & CU_CK_INIT ? " initcheck" : "", what & CU_CK_LEAK ? " leakcheck" : "");
  }
  cu_ck_what |= what;
  if (first) dl_iterate_phdr(ro_seg, NULL);
}

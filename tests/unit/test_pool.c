/* test_pool.c: how the worker pool hands out blocks (pool.c).
 *  - rt_pool_take: guided chunks cover [0, n) once, in order, shrinking
 *    from a 2W-th of the grid down to the minimum chunk;
 *  - rt_pool_home: the workers' home ranges split [0, n) in order, into
 *    parts whose sizes differ by at most one;
 *  - rt_pool_run on the real pool: every block runs exactly once, on
 *    however many workers CUCC_WORKERS gives it, and each worker takes the
 *    chunks of any one range in increasing order; each worker begins at
 *    its own range and, done with it, takes blocks of the others';
 *  - with two devices (CUCC_DEVICES=2), grids running at once share the
 *    workers: a grid alone has all of them, two at once half each;
 *  - without CUCC_WORKERS, the workers are the cores the process may use
 *    (CUCC_TEST_CORES=n: there must be n of them; run under taskset, or as
 *    one of many MPI ranks on the node).
 * Not a timing test: bench/run measures what the chunk sizes are for. */
#include "rt.h"
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

static int npass, nfail;

static void ok(const char *what, int cond) {
  if (cond) { npass++; return; }
  nfail++;
  printf("FAIL %s\n", what);
}

static void take(unsigned long long n, unsigned long long min, int parts) {
  char what[128];
  _Atomic unsigned long long next = 0;
  unsigned long long lo, hi, at = 0, prev = ~0ull, chunks = 0;
  int order = 1, shrink = 1, least = 1;
  while (rt_pool_take(&next, n, min, parts, &lo, &hi)) {
    if (lo != at || hi <= lo) order = 0;
    if (hi - lo > prev) shrink = 0;
    if (hi - lo < min && hi != n) least = 0;
    if (!chunks && n / (2ull * parts) >= min && hi - lo != n / (2ull * parts)) least = 0;
    prev = hi - lo;
    at = hi;
    chunks++;
  }
  snprintf(what, sizeof what, "take n=%llu min=%llu parts=%d", n, min, parts);
  ok(what, order && at == n && shrink && least);
  /* guided: about 2W ln(n / (2W min)) chunks, far fewer than n / min */
  snprintf(what, sizeof what, "take n=%llu min=%llu parts=%d: %llu chunks", n, min, parts, chunks);
  ok(what, n < 4096 || chunks < n / min / 4);
}

static void home(unsigned long long n, int parts) {
  char what[96];
  unsigned long long at = 0, lo, hi, big = 0, small = ~0ull;
  int order = 1;
  for (int w = 0; w < parts; w++) {
    rt_pool_home(n, parts, w, &lo, &hi);
    if (lo != at || hi < lo) order = 0;
    if (hi - lo > big) big = hi - lo;
    if (hi - lo < small) small = hi - lo;
    at = hi;
  }
  snprintf(what, sizeof what, "home n=%llu parts=%d", n, parts);
  ok(what, order && at == n && big - small <= 1);
}

/* per worker and range: where its last chunk there began */
enum { MAXW = 1024 };   /* pool.c's most workers */
static unsigned long long last[MAXW][MAXW];

static _Atomic unsigned char *seen;
static _Atomic int bad;

static void mark(unsigned long long first, unsigned long long end, int worker, void *arg) {
  int nw = rt_pool_workers();
  if (worker < 0 || worker >= rt_pool_slots() || rt_pool_slots() > MAXW) {
    atomic_store(&bad, 1);
    return;
  }
  unsigned long long n = *(unsigned long long *)arg, lo, hi;
  for (int r = 0; r < nw; r++) {
    rt_pool_home(n, nw, r, &lo, &hi);
    if (first < lo || first >= hi) continue;
    if (end > hi || (last[worker][r] != ~0ull && first <= last[worker][r])) atomic_store(&bad, 1);
    last[worker][r] = first;
  }
  for (unsigned long long i = first; i < end; i++)
    if (atomic_fetch_add(&seen[i], 1)) atomic_store(&bad, 1);
}

static void run(unsigned long long n) {
  char what[96];
  seen = calloc(n ? n : 1, 1);
  atomic_store(&bad, 0);
  memset(last, 0xff, sizeof last);
  rt_pool_run(0, n, rt_pool_chunk(n), mark, &n);
  int all = 1;
  for (unsigned long long i = 0; i < n; i++) all &= seen[i] == 1;
  snprintf(what, sizeof what, "run n=%llu on %d workers", n, rt_pool_workers());
  ok(what, all && !atomic_load(&bad));
  free((void *)seen);
}

/* Where each worker starts, and stealing, made deterministic by waiting:
 * no worker returns from a chunk before every worker has taken one (so
 * nobody can have stolen yet: each first chunk must begin a home range of
 * its own), and the launching thread (range 0) does not return from its
 * second chunk of range 0 before another worker has taken part of that
 * range (which only stealing does). A wait over 5 s counts as a failure,
 * not a hang. */
static _Atomic int nstarted, stolen;
static unsigned long long first_lo[MAXW];

static int wait_for(_Atomic int *v, int want) {
  struct timespec t0, t, d = {0, 10000};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (atomic_load(v) < want) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (t.tv_sec - t0.tv_sec > 5) return 0;
    nanosleep(&d, NULL);
  }
  return 1;
}

static void gate(unsigned long long first, unsigned long long end, int worker, void *arg) {
  int nw = rt_pool_workers(), self = rt_pool_slots() - rt_ndev();   /* the launcher's slot */
  unsigned long long n = *(unsigned long long *)arg, lo0, hi0;
  static _Atomic int took[MAXW];
  rt_pool_home(n, nw, 0, &lo0, &hi0);
  if (worker != self && first < hi0) atomic_store(&stolen, 1);
  int k = atomic_fetch_add(&took[worker], 1);
  if (k == 0) {
    first_lo[worker] = first;
    atomic_fetch_add(&nstarted, 1);
  }
  for (unsigned long long i = first; i < end; i++)
    if (atomic_fetch_add(&seen[i], 1)) atomic_store(&bad, 1);
  if (!wait_for(&nstarted, nw)) atomic_store(&bad, 1);
  if (worker == self && nw > 1 && k == 1 && first < hi0 && !wait_for(&stolen, 1)) atomic_store(&bad, 1);
}

static void homes_run(void) {
  unsigned long long n = 4000, lo, hi;
  int nw = rt_pool_workers(), ns = rt_pool_slots();
  if (ns > MAXW) return;
  seen = calloc(n, 1);
  memset(first_lo, 0xff, sizeof first_lo);
  atomic_store(&bad, 0);
  atomic_store(&nstarted, 0);
  atomic_store(&stolen, 0);
  rt_pool_run(0, n, rt_pool_chunk(n), gate, &n);
  int all = 1, starts = 1;
  for (unsigned long long i = 0; i < n; i++) all &= seen[i] == 1;
  /* the launcher at range 0; every range begun by one worker */
  starts &= first_lo[ns - rt_ndev()] == 0;
  for (int w = 0; w < nw; w++) {
    rt_pool_home(n, nw, w, &lo, &hi);
    int owners = 0;
    for (int s = 0; s < ns; s++) owners += first_lo[s] == lo;
    starts &= owners == 1;
  }
  ok("each worker starts at its home range", all && starts && !atomic_load(&bad));
  ok("idle workers take blocks of another's range", nw == 1 || atomic_load(&stolen));
  free((void *)seen);
}

/* Two devices' grids at once: each block takes 1 ms, and once the first
 * one's extra helpers have left it (between two chunks: within 3 s on any
 * machine), neither has more threads in it than its half of the workers
 * while both run, and the second one has helpers of its own. */
enum { NSHARE = 3000 };
static _Atomic int inside[2], most[2], ending;
static _Atomic unsigned long long given[2];
static _Atomic unsigned char *seen2[2];

static void shared(unsigned long long first, unsigned long long end, int slot, void *arg) {
  int g = *(int *)arg;
  atomic_fetch_add(&inside[g], 1);
  (void)slot;
  /* its last blocks taken: the grid stops taking helpers, the other may grow */
  if (atomic_fetch_add(&given[g], end - first) + (end - first) == NSHARE) atomic_store(&ending, 1);
  struct timespec d = {0, 1000000};
  for (unsigned long long i = first; i < end; i++) {
    if (atomic_fetch_add(&seen2[g][i], 1)) atomic_store(&bad, 1);
    nanosleep(&d, NULL);
  }
  atomic_fetch_sub(&inside[g], 1);
}

static void *grid(void *arg) {
  rt_pool_run(*(int *)arg, NSHARE, 1, shared, arg);
  return NULL;
}

static void two_devices(void) {
  int nw = rt_pool_workers(), ids[2] = {0, 1};
  for (int g = 0; g < 2; g++) seen2[g] = calloc(NSHARE, 1);
  atomic_store(&bad, 0);
  pthread_t t[2];
  struct timespec d = {0, 30000000};
  pthread_create(&t[0], NULL, grid, &ids[0]);
  nanosleep(&d, NULL);
  pthread_create(&t[1], NULL, grid, &ids[1]);
  struct timespec ms = {0, 1000000};
  for (int i = 0; i < 3000 && atomic_load(&inside[0]) > (nw + 1) / 2 && !atomic_load(&ending); i++) nanosleep(&ms, NULL);
  for (int i = 0; i < 60; i++) {   /* 60 ms of samples of the threads in each grid */
    for (int g = 0; g < 2; g++)
      if (atomic_load(&inside[g]) > atomic_load(&most[g])) atomic_store(&most[g], atomic_load(&inside[g]));
    nanosleep(&ms, NULL);
  }
  int open = !atomic_load(&ending);
  for (int g = 0; g < 2; g++) pthread_join(t[g], NULL);
  int all = 1;
  for (int g = 0; g < 2; g++)
    for (int i = 0; i < NSHARE; i++) all &= seen2[g][i] == 1;
  char what[128];
  snprintf(what, sizeof what, "two grids at once on %d workers: %d and %d threads each (at most %d)", nw,
           atomic_load(&most[0]), atomic_load(&most[1]), (nw + 1) / 2);
  ok("two grids at once: every block once", all && !atomic_load(&bad));
  if (getenv("CUCC_TEST_VERBOSE")) printf("%s%s\n", what, open ? "" : " (not measured: a grid ended early)");
  ok(what, !open || (atomic_load(&most[0]) <= (nw + 1) / 2 && atomic_load(&most[1]) <= (nw + 1) / 2 &&
                     (nw < 4 || atomic_load(&most[1]) >= 2)));
}

int main(void) {
  const char *cores = getenv("CUCC_TEST_CORES");
  if (cores) {
    char what[96];
    snprintf(what, sizeof what, "%d workers for %s available cores", rt_pool_workers(), cores);
    ok(what, rt_pool_workers() == atoi(cores));
  }
  unsigned long long ns[] = {0, 1, 2, 31, 32, 33, 1000, 32768, 1000003};
  for (unsigned i = 0; i < sizeof ns / sizeof *ns; i++) {
    for (int parts = 1; parts <= 16; parts *= 4) {
      take(ns[i], 1, parts);
      take(ns[i], 32, parts);
    }
    for (int parts = 1; parts <= 17; parts += 2) home(ns[i], parts);
    for (int r = 0; r < 3; r++) run(ns[i]);
  }
  homes_run();
  if (rt_ndev() >= 2) two_devices();
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}

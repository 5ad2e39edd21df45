/* test_pool.c: how the worker pool hands out blocks (pool.c).
 *  - rt_pool_take: guided chunks cover [0, n) once, in order, shrinking
 *    from a 2W-th of the grid down to the minimum chunk;
 *  - rt_pool_home: the workers' home ranges split [0, n) in order, into
 *    parts whose sizes differ by at most one;
 *  - rt_pool_run on the real pool: every block runs exactly once, on
 *    however many workers CUCC_WORKERS gives it, and each worker takes the
 *    chunks of any one range in increasing order; each worker begins at
 *    its own range and, done with it, takes blocks of the others'.
 * Not a timing test: bench/run measures what the chunk sizes are for. */
#include "rt.h"
#include <stdatomic.h>
#include <time.h>

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
  if (worker < 0 || worker >= nw || nw > MAXW) {
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
  rt_pool_run(n, rt_pool_chunk(n), mark, &n);
  int all = 1;
  for (unsigned long long i = 0; i < n; i++) all &= seen[i] == 1;
  snprintf(what, sizeof what, "run n=%llu on %d workers", n, rt_pool_workers());
  ok(what, all && !atomic_load(&bad));
  free((void *)seen);
}

/* Where each worker starts, and stealing, made deterministic by waiting:
 * no worker returns from a chunk before every worker has taken one (so
 * nobody can have stolen yet: each first chunk must begin its own home
 * range), and worker 0 does not return from its second chunk of range 0
 * before another worker has taken part of that range (which only stealing
 * does). A wait over 5 s counts as a failure, not a hang. */
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
  int nw = rt_pool_workers();
  unsigned long long n = *(unsigned long long *)arg, lo0, hi0;
  static _Atomic int took[MAXW];
  rt_pool_home(n, nw, 0, &lo0, &hi0);
  if (worker != 0 && first < hi0) atomic_store(&stolen, 1);
  int k = atomic_fetch_add(&took[worker], 1);
  if (k == 0) {
    first_lo[worker] = first;
    atomic_fetch_add(&nstarted, 1);
  }
  for (unsigned long long i = first; i < end; i++)
    if (atomic_fetch_add(&seen[i], 1)) atomic_store(&bad, 1);
  if (!wait_for(&nstarted, nw)) atomic_store(&bad, 1);
  if (worker == 0 && nw > 1 && k == 1 && first < hi0 && !wait_for(&stolen, 1)) atomic_store(&bad, 1);
}

static void homes_run(void) {
  unsigned long long n = 4000, lo, hi;
  int nw = rt_pool_workers();
  if (nw > MAXW) return;
  seen = calloc(n, 1);
  atomic_store(&bad, 0);
  atomic_store(&nstarted, 0);
  atomic_store(&stolen, 0);
  rt_pool_run(n, rt_pool_chunk(n), gate, &n);
  int all = 1, starts = 1;
  for (unsigned long long i = 0; i < n; i++) all &= seen[i] == 1;
  for (int w = 0; w < nw; w++) {
    rt_pool_home(n, nw, w, &lo, &hi);
    starts &= first_lo[w] == lo;
  }
  ok("each worker starts at its home range", all && starts && !atomic_load(&bad));
  ok("idle workers take blocks of another's range", nw == 1 || atomic_load(&stolen));
  free((void *)seen);
}

int main(void) {
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
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}

/* pool.c: the worker pool that plays the GPU's SMs. One worker per core by
 * default (CUCC_WORKERS=n overrides); the launching thread is worker 0 and
 * takes blocks too. Blocks are handed out from an atomic counter in
 * shrinking chunks (guided self-scheduling, rt_pool_take): a worker takes
 * a 2W-th of what is left, at least the launch's minimum chunk. Big chunks
 * first keep each worker's memory stream long and its own: with chunks of
 * 32 blocks (64 KiB of a reduction's input) two workers took turns along
 * one array and gained 1.15x over one, where whole halves gain 2x. Small
 * chunks last still balance uneven blocks, and the counter's cache line
 * does not travel between cores once per block (with one block per fetch,
 * two workers ran an empty grid slower than one).
 *
 * Between launches a worker spins for a while (about 100 µs) before it
 * sleeps on the condition variable, and so does the launcher waiting for
 * the helpers: waking a sleeping thread costs several microseconds, which a
 * stream of short kernels would pay at every launch. */
#include "rt.h"
#include <stdatomic.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static _Atomic unsigned long long gen;  /* job generation (changed under mu) */
static void (*job_fn)(unsigned long long, unsigned long long, int, void *);
static void *job_arg;
static unsigned long long job_n, job_chunk;
static _Atomic unsigned long long job_next;
static _Atomic int active;              /* helpers still working on the job */
static int nworkers;                    /* including the caller */
static pthread_once_t once = PTHREAD_ONCE_INIT;

enum { SPIN = 4000 };

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static void work(int id) {
  unsigned long long lo, hi;
  while (rt_pool_take(&job_next, job_n, job_chunk, nworkers, &lo, &hi)) job_fn(lo, hi, id, job_arg);
}

static void *worker(void *p) {
  int id = (int)(intptr_t)p;
  unsigned long long seen = 0;
  for (;;) {
    for (int i = 0; i < SPIN && atomic_load_explicit(&gen, memory_order_acquire) == seen; i++) relax();
    if (atomic_load(&gen) == seen) {
      pthread_mutex_lock(&mu);
      while (atomic_load(&gen) == seen) pthread_cond_wait(&go, &mu);
      pthread_mutex_unlock(&mu);
    }
    seen = atomic_load(&gen);
    work(id);
    if (atomic_fetch_sub(&active, 1) == 1) {
      pthread_mutex_lock(&mu);
      pthread_cond_signal(&done);
      pthread_mutex_unlock(&mu);
    }
  }
  return NULL;
}

static void start(void) {
  const char *w = getenv("CUCC_WORKERS");
  long n = w && *w ? atol(w) : sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > 1024) n = 1024;
  nworkers = (int)n;
  for (int i = 1; i < nworkers; i++) {
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, worker, (void *)(intptr_t)i) != 0) nworkers = i;
    pthread_attr_destroy(&a);
    if (nworkers == i) break;
  }
}

int rt_pool_workers(void) {
  pthread_once(&once, start);
  return nworkers;
}

/* The next chunk of [0, n) for one of `parts` workers: a 2*parts-th of
 * what is left, at least `min` (guided: the first chunks are long runs of
 * neighbouring blocks, the last ones short enough to balance). */
bool rt_pool_take(_Atomic unsigned long long *next, unsigned long long n, unsigned long long min, int parts,
                  unsigned long long *lo, unsigned long long *hi) {
  unsigned long long i = atomic_load_explicit(next, memory_order_relaxed), c;
  do {
    if (i >= n) return false;
    c = (n - i) / (2 * (unsigned long long)parts);
    if (c < min) c = min;
    if (!c) c = 1;
    if (c > n - i) c = n - i;
  } while (!atomic_compare_exchange_weak_explicit(next, &i, i + c, memory_order_relaxed, memory_order_relaxed));
  *lo = i;
  *hi = i + c;
  return true;
}

/* The smallest chunk: about 16 per worker, at most 32 items, so the tail
 * stays short. */
unsigned long long rt_pool_chunk(unsigned long long n) {
  pthread_once(&once, start);
  unsigned long long c = n / ((unsigned long long)nworkers * 16);
  return c < 1 ? 1 : c > 32 ? 32 : c;
}

void rt_pool_run(unsigned long long n, unsigned long long chunk,
                 void (*fn)(unsigned long long, unsigned long long, int, void *), void *arg) {
  pthread_once(&once, start);
  job_fn = fn;
  job_arg = arg;
  job_n = n;
  job_chunk = chunk ? chunk : 1;
  atomic_store(&job_next, 0);
  if (nworkers == 1 || n <= job_chunk) {
    work(0);
    return;
  }
  atomic_store(&active, nworkers - 1);
  pthread_mutex_lock(&mu);
  atomic_fetch_add(&gen, 1);
  pthread_cond_broadcast(&go);
  pthread_mutex_unlock(&mu);
  work(0);
  for (int i = 0; i < SPIN && atomic_load(&active); i++) relax();
  if (atomic_load(&active)) {
    pthread_mutex_lock(&mu);
    while (atomic_load(&active)) pthread_cond_wait(&done, &mu);
    pthread_mutex_unlock(&mu);
  }
}

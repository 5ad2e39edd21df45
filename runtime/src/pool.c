/* pool.c: the worker pool that plays the GPU's SMs. One worker per core by
 * default (CUCC_WORKERS=n overrides); the launching thread is worker 0 and
 * takes blocks too. Each worker has a home range of the grid's blocks, the
 * w-th nth, and takes them in shrinking chunks (a quarter of what is left
 * of it); once its own range is done it takes small chunks from the front
 * of what is left of the others' (the launch's minimum chunk, so the end
 * stays balanced). A
 * worker thus reads the same part of an array at every launch and its own
 * part as one long stream: with chunks of 32 blocks from one counter two
 * workers took turns along the reduction's input and gained 1.15x over
 * one, where whole halves gain 2x; with chunks from one counter shrinking
 * from the start (guided), which part a worker read changed from launch to
 * launch, and the `t < stride` reduction's launches 2 to 4 took 1.71, 1.62
 * and 1.36 ms against 1.51, 1.43 and 1.22 with home ranges (the expert's
 * 1.18, 1.12, 1.12), the same in steady state. A range's counter is its
 * own cache line and mostly its owner's, so it does not travel between
 * cores once per chunk.
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
static unsigned long long job_chunk;
typedef struct Home {              /* a worker's home range of the job: [next, end) */
  _Alignas(64) _Atomic unsigned long long next;
  unsigned long long end;
} Home;
static Home *homes;                       /* one per worker */
static Home home1;                        /* ... when that array could not be had */
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

/* The next chunk of a home range: for its owner a quarter of what is left,
 * for the others `min`; at least `min`, at most what is left. */
static bool take(Home *h, unsigned long long min, bool own, unsigned long long *lo, unsigned long long *hi) {
  unsigned long long i = atomic_load_explicit(&h->next, memory_order_relaxed), c;
  do {
    if (i >= h->end) return false;
    c = own ? (h->end - i) / 4 : min;
    if (c < min) c = min;
    if (c > h->end - i) c = h->end - i;
  } while (!atomic_compare_exchange_weak_explicit(&h->next, &i, i + c, memory_order_relaxed, memory_order_relaxed));
  *lo = i;
  *hi = i + c;
  return true;
}

static void work(int id) {
  unsigned long long lo, hi;
  for (int k = 0; k < nworkers; k++) {
    Home *h = &homes[(id + k) % nworkers];
    while (take(h, job_chunk, k == 0, &lo, &hi)) job_fn(lo, hi, id, job_arg);
  }
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
  homes = aligned_alloc(64, sizeof *homes * (size_t)nworkers);
  if (!homes) {
    homes = &home1;
    nworkers = 1;
  }
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

/* The next chunk of [0, n) for one of `parts` workers sharing one counter
 * (the simulated SMs of sm.c): a 2*parts-th of what is left, at least
 * `min` (guided: the first chunks are long runs of neighbouring blocks,
 * the last ones short enough to balance). */
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

/* Worker w's home range of [0, n) among `parts` workers: the w-th nth (the
 * first n % parts ranges one block longer). */
void rt_pool_home(unsigned long long n, int parts, int w, unsigned long long *lo, unsigned long long *hi) {
  unsigned long long q = n / (unsigned)parts, r = n % (unsigned)parts, u = (unsigned)w;
  *lo = q * u + (u < r ? u : r);
  *hi = *lo + q + (u < r);
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
  job_chunk = chunk ? chunk : 1;
  for (int w = 0; w < nworkers; w++) {
    unsigned long long lo;
    rt_pool_home(n, nworkers, w, &lo, &homes[w].end);
    atomic_store_explicit(&homes[w].next, lo, memory_order_relaxed);
  }
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

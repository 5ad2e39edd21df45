/* pool.c: the worker pool that plays the GPUs' SMs. One worker per core
 * this process may use by default (CUCC_WORKERS=n overrides): the
 * launching thread runs blocks too, helped by up to n - 1 helper threads.
 * Devices busy at once share the workers: each running grid wants its
 * share of them (n divided by the grids running), and a helper on a grid
 * that has more than its share, when another has less, moves over between
 * two chunks; so with one device running it has every core, with k devices
 * running each has n/k, and no more threads run than there are cores
 * (but the launching threads, one per busy device).
 *
 * Each participant in a grid has a home range of its blocks, the i-th of
 * the grid's share-th parts, and takes them in shrinking chunks (a quarter
 * of what is left of it); once its own range is done it takes small chunks
 * from the front of what is left of the others' (the launch's minimum
 * chunk, so the end stays balanced). A participant thus reads the same
 * part of an array at every launch and its own part as one long stream:
 * with chunks of 32 blocks from one counter two workers took turns along
 * the reduction's input and gained 1.15x over one, where whole halves gain
 * 2x; with chunks from one counter shrinking from the start (guided), which
 * part a worker read changed from launch to launch, and the `t < stride`
 * reduction's launches 2 to 4 took 1.71, 1.62 and 1.36 ms against 1.51,
 * 1.43 and 1.22 with home ranges (the expert's 1.18, 1.12, 1.12), the same
 * in steady state. A range's counter is its own cache line and mostly its
 * owner's, so it does not travel between cores once per chunk.
 *
 * Between launches a helper spins for a while (about 100 µs) before it
 * sleeps on the condition variable, and so does the launcher waiting for
 * its helpers: waking a sleeping thread costs several microseconds, which a
 * stream of short kernels would pay at every launch. */
#include "rt.h"
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct Home {              /* a participant's home range: [next, end) */
  _Alignas(64) _Atomic unsigned long long next;
  unsigned long long end;
} Home;

typedef struct Job {               /* a device's grid (or sm.c's SMs) being run */
  void (*fn)(unsigned long long, unsigned long long, int, void *);
  void *arg;
  unsigned long long chunk;
  int parts;                       /* home ranges */
  Home *homes;
  _Atomic int open;                /* helpers may join (the fields above are set) */
  _Atomic int joined;              /* participants so far: the next one's index */
  _Atomic int have, want;          /* helpers on it now; its share less its launcher */
} Job;

/* One job per device (a device runs one grid at a time), kept for the
 * process's life, so that a helper may look at any without a lock: it
 * counts itself in (`have`), then checks the job is still open; its
 * launcher closes the job, then waits until `have` is 0. Joins need no
 * lock; the mutex guards the shares and the sleeps. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static _Atomic unsigned long long gen;   /* (changed under mu) a grid may want more helpers */
static Job *jobs;                        /* per device */
static int njobs, ndev;                  /* (mu) jobs open; devices */
static Home home1;                       /* when the jobs could not be had */
static Job job1 = {.homes = &home1};
static int nworkers, nslots;             /* workers, including the launcher; helpers + devices */
static pthread_once_t once = PTHREAD_ONCE_INIT;

enum { SPIN = 4000 };

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* The cores this process may run on: its affinity mask (a cpuset,
 * taskset, mpirun's binding), no more than its cgroup's CPU quota, and when
 * several MPI ranks share the node, no more than their share of the cores
 * the node gives the job (its cgroup's cpuset, or every core): ranks bound
 * to a core each get one, ranks that share a socket's mask or are not
 * bound at all split it instead of each taking all of it. */
static long quota(void) {
  long q = 0, per = 0;
  char s[32];
  FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");   /* cgroup v2: "max 100000" or "200000 100000" */
  if (f) {
    if (fscanf(f, "%31s %ld", s, &per) == 2 && strcmp(s, "max")) q = atol(s);
    fclose(f);
  } else if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r"))) {   /* v1 */
    if (fscanf(f, "%ld", &q) != 1) q = 0;
    fclose(f);
    if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r"))) {
      if (fscanf(f, "%ld", &per) != 1) per = 0;
      fclose(f);
    }
  }
  return q > 0 && per > 0 ? (q + per - 1) / per : 0;
}

/* The CPUs of the cgroup's cpuset ("0-3,8,10-11"), or 0 if unknown. */
static long cpuset(void) {
  FILE *f = fopen("/sys/fs/cgroup/cpuset.cpus.effective", "r");
  if (!f) return 0;
  long n = 0, lo, hi;
  while (fscanf(f, "%ld", &lo) == 1) {
    int c = fgetc(f);
    hi = lo;
    if (c == '-') {
      if (fscanf(f, "%ld", &hi) != 1) break;
      c = fgetc(f);
    }
    n += hi >= lo ? hi - lo + 1 : 0;
    if (c != ',') break;
  }
  fclose(f);
  return n;
}

int rt_cores(void) {
  long online = sysconf(_SC_NPROCESSORS_ONLN), n = 0, q = quota();
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
  if (n < 1) n = online > 0 ? online : 1;
  if (q > 0 && q < n) n = q;
  const char *ranks = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (!ranks) ranks = getenv("MPI_LOCALNRANKS");   /* MPICH's */
  long k = ranks ? atol(ranks) : 0, node = cpuset();
  if (node < 1) node = online > 0 ? online : n;
  if (k > 1 && node / k < n) n = node / k > 0 ? node / k : 1;
  return (int)n;
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

/* Shares of the workers among the grids running (mu held): each gets
 * nworkers / njobs, its launcher included. */
static void reshare(void) {
  int k = 0;
  for (int d = 0; d < ndev; d++) {
    if (!atomic_load(&jobs[d].open)) continue;
    int s = nworkers / njobs + (k++ < nworkers % njobs);
    atomic_store(&jobs[d].want, s > 1 ? s - 1 : 0);
  }
}

/* A helper counts itself off; the last one wakes a launcher that sleeps. */
static void off(Job *j) {
  if (atomic_fetch_sub(&j->have, 1) == 1) {
    pthread_mutex_lock(&mu);
    pthread_cond_broadcast(&done);
    pthread_mutex_unlock(&mu);
  }
}

/* Participant `idx` of j: its own range first, then the others'. A helper
 * over its grid's share (another grid started) leaves it between chunks,
 * for a grid short of helpers or to wait: false. */
static bool work(Job *j, int idx, int slot, bool helper) {
  unsigned long long lo, hi;
  for (int k = 0; k < j->parts; k++) {
    Home *h = &j->homes[(idx + k) % j->parts];
    while (take(h, j->chunk, k == 0 && idx < j->parts, &lo, &hi)) {
      j->fn(lo, hi, slot, j->arg);
      if (helper && atomic_load_explicit(&j->have, memory_order_relaxed) >
                        atomic_load_explicit(&j->want, memory_order_relaxed))
        return false;
    }
  }
  return true;
}

/* Joins an open grid short of helpers, works on it and leaves: false if
 * there was none. */
static bool help(int slot) {
  for (int d = 0; d < ndev; d++) {
    Job *j = &jobs[d];
    if (!atomic_load(&j->open) || atomic_load(&j->have) >= atomic_load(&j->want)) continue;
    int h = atomic_fetch_add(&j->have, 1);
    if (!atomic_load(&j->open) || h >= atomic_load(&j->want)) {   /* closed, or full meanwhile */
      off(j);
      continue;
    }
    work(j, atomic_fetch_add(&j->joined, 1), slot, true);
    off(j);
    return true;
  }
  return false;
}

static void *helper(void *p) {
  int slot = (int)(intptr_t)p;
  for (;;) {
    unsigned long long seen = atomic_load(&gen);
    if (help(slot)) continue;
    for (int i = 0; i < SPIN && atomic_load_explicit(&gen, memory_order_acquire) == seen; i++) relax();
    if (atomic_load(&gen) == seen) {
      pthread_mutex_lock(&mu);
      while (atomic_load(&gen) == seen) pthread_cond_wait(&go, &mu);
      pthread_mutex_unlock(&mu);
    }
  }
  return NULL;
}

static void start(void) {
  const char *w = getenv("CUCC_WORKERS");
  long n = w && *w ? atol(w) : rt_cores();
  if (n < 1) n = 1;
  if (n > 1024) n = 1024;
  ndev = rt_ndev();
  jobs = calloc((size_t)ndev, sizeof *jobs);
  for (int d = 0; jobs && d < ndev; d++)
    if (!(jobs[d].homes = aligned_alloc(64, sizeof(Home) * (size_t)n))) {
      free(jobs);
      jobs = NULL;
    }
  nworkers = jobs ? (int)n : 1;
  for (int i = 1; i < nworkers; i++) {
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, helper, (void *)(intptr_t)(i - 1)) != 0) nworkers = i;
    pthread_attr_destroy(&a);
    if (nworkers == i) break;
  }
  nslots = nworkers - 1 + ndev;
}

int rt_pool_workers(void) {
  pthread_once(&once, start);
  return nworkers;
}

int rt_pool_slots(void) {
  pthread_once(&once, start);
  return nslots;
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

void rt_pool_run(int dev, unsigned long long n, unsigned long long chunk,
                 void (*fn)(unsigned long long, unsigned long long, int, void *), void *arg) {
  pthread_once(&once, start);
  int slot = nworkers - 1 + dev;
  Job *j = jobs ? &jobs[dev] : &job1;
  j->fn = fn;
  j->arg = arg;
  j->chunk = chunk ? chunk : 1;
  if (nworkers == 1 || n <= j->chunk) {   /* alone */
    j->parts = 1;
    j->homes[0].end = n;
    atomic_store_explicit(&j->homes[0].next, 0, memory_order_relaxed);
    work(j, 0, slot, false);
    return;
  }
  pthread_mutex_lock(&mu);
  njobs++;
  j->parts = nworkers / njobs > 0 ? nworkers / njobs : 1;
  for (int w = 0; w < j->parts; w++) {
    unsigned long long lo;
    rt_pool_home(n, j->parts, w, &lo, &j->homes[w].end);
    atomic_store_explicit(&j->homes[w].next, lo, memory_order_relaxed);
  }
  atomic_store(&j->joined, 1);
  atomic_store(&j->want, 0);
  atomic_store(&j->open, 1);
  reshare();
  atomic_fetch_add(&gen, 1);
  pthread_cond_broadcast(&go);
  pthread_mutex_unlock(&mu);
  work(j, 0, slot, false);
  /* every block is taken: no more helpers; the other grids get them */
  pthread_mutex_lock(&mu);
  atomic_store(&j->open, 0);
  njobs--;
  reshare();
  if (njobs) {   /* their shares grew */
    atomic_fetch_add(&gen, 1);
    pthread_cond_broadcast(&go);
  }
  pthread_mutex_unlock(&mu);
  for (int i = 0; i < SPIN && atomic_load(&j->have); i++) relax();
  if (atomic_load(&j->have)) {
    pthread_mutex_lock(&mu);
    while (atomic_load(&j->have)) pthread_cond_wait(&done, &mu);
    pthread_mutex_unlock(&mu);
  }
}

/* stream.c: streams. Each created stream belongs to the device that was
 * current when it was made, and is a host thread (whose current device is
 * that one) that runs its queue of operations (launches, copies, sets,
 * event records and waits, host functions) in order, so work in different
 * streams may overlap, as on a GPU with several engines. The legacy default
 * stream (0, cudaStreamLegacy) and cudaStreamPerThread are the current
 * device's and have no thread: their work runs at once on the calling
 * thread, after (legacy only) the work already issued to every blocking
 * stream of that device, which is the legacy stream's implicit barrier.
 * Work issued later to a blocking stream needs no wait: the legacy stream's
 * work is complete when its call returns. Streams created with
 * cudaStreamNonBlocking take no part in either direction. */
#include "rt.h"
#include <stdatomic.h>

typedef struct Op { void (*run)(void *); void *arg; struct Op *next; } Op;

struct CUstream_st {
  rt_dev *dev;
  unsigned flags;
  int prio;
  pthread_mutex_t mu;
  pthread_cond_t cv;            /* queue grew, or an operation completed */
  Op *head, *tail;
  unsigned long long issued, done;
  int dying;                    /* destroyed: runs what it has, then exits */
  int refs;                     /* (all_mu) the thread and drainers using it */
  struct CUstream_st *next;     /* every stream whose thread runs (live or dying) */
  void *cap;                    /* graph.c: the capture this stream takes part in */
  struct cudaAccessPolicyWindow apw;   /* attributes: recorded and reported */
  enum cudaSynchronizationPolicy sync;
};

static cudaStream_t all;
static pthread_mutex_t all_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int nblocking;   /* fast path: no blocking stream, nothing to drain */

/* Drop a reference (all_mu held); the last one frees the stream. */
static void release(cudaStream_t s) {
  if (--s->refs) return;
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
  free(s);
}

static void *loop(void *p) {
  cudaStream_t s = p;
  rt_set_cur(s->dev);
  pthread_mutex_lock(&s->mu);
  for (;;) {
    while (!s->head && !s->dying) pthread_cond_wait(&s->cv, &s->mu);
    if (!s->head) break;
    Op *o = s->head;
    pthread_mutex_unlock(&s->mu);
    o->run(o->arg);
    pthread_mutex_lock(&s->mu);
    s->head = o->next;
    if (!s->head) s->tail = NULL;
    s->done++;
    pthread_cond_broadcast(&s->cv);
    free(o);
  }
  pthread_mutex_unlock(&s->mu);
  pthread_mutex_lock(&all_mu);
  for (cudaStream_t *q = &all; *q; q = &(*q)->next)
    if (*q == s) {
      *q = s->next;
      break;
    }
  if (!(s->flags & cudaStreamNonBlocking)) atomic_fetch_sub(&nblocking, 1);
  release(s);
  pthread_mutex_unlock(&all_mu);
  return NULL;
}

static bool is_inline(cudaStream_t s) { return !s || s == cudaStreamLegacy || s == cudaStreamPerThread; }

/* Is s a stream the program may use? (all_mu held) */
static bool live_locked(cudaStream_t s) {
  for (cudaStream_t q = all; q; q = q->next)
    if (q == s) return !q->dying;
  return false;
}

cudaError_t rt_stream_check(cudaStream_t s) {
  if (is_inline(s)) return cudaSuccess;
  pthread_mutex_lock(&all_mu);
  bool ok = live_locked(s);
  pthread_mutex_unlock(&all_mu);
  return ok ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

/* Wait until the operations issued to s so far have completed. */
static void drain(cudaStream_t s) {
  pthread_mutex_lock(&s->mu);
  unsigned long long want = s->issued;
  while (s->done < want) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
}

/* Wait for the work issued so far to the blocking streams (every: to all
 * streams) of device d (NULL: of every device). The streams are held by a
 * reference while all_mu is released for the waits, since a destroyed one
 * frees itself when it runs dry. */
static void drain_streams(rt_dev *d, bool every) {
  if (!every && atomic_load(&nblocking) == 0) return;
  cudaStream_t *v = NULL;
  int n = 0, cap = 0;
  pthread_mutex_lock(&all_mu);
  for (cudaStream_t q = all; q; q = q->next) {
    if ((!every && (q->flags & cudaStreamNonBlocking)) || (d && q->dev != d)) continue;
    if (n == cap) {
      cudaStream_t *nv = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
      if (!nv) break;
      v = nv;
    }
    q->refs++;
    v[n++] = q;
  }
  pthread_mutex_unlock(&all_mu);
  for (int i = 0; i < n; i++) drain(v[i]);
  pthread_mutex_lock(&all_mu);
  for (int i = 0; i < n; i++) release(v[i]);
  pthread_mutex_unlock(&all_mu);
  free(v);
}

void rt_legacy_sync(rt_dev *d) { drain_streams(d, false); }
void rt_sync_dev(rt_dev *d) { drain_streams(d, true); }
void rt_sync_all(void) { drain_streams(NULL, true); }

void rt_stream_sync(cudaStream_t s) {
  if (s == cudaStreamPerThread) return;
  if (is_inline(s)) rt_legacy_sync(rt_cur());
  else drain(s);
}

bool rt_stream_queued(cudaStream_t s) { return !is_inline(s); }

rt_dev *rt_stream_dev(cudaStream_t s) { return is_inline(s) ? rt_cur() : s->dev; }
/* Only created streams capture (graph.c refuses the others). The program's
 * threads set and read the state in the order they issue their calls, as
 * CUDA asks of them. */
void *rt_stream_cap(cudaStream_t s) { return is_inline(s) ? NULL : s->cap; }
void rt_stream_set_cap(cudaStream_t s, void *c) {
  if (!is_inline(s)) s->cap = c;
}

void rt_stream_push(cudaStream_t s, void (*run)(void *), void *arg) {
  if (is_inline(s)) {
    if (s != cudaStreamPerThread) rt_legacy_sync(rt_cur());
    run(arg);
    return;
  }
  Op *o = malloc(sizeof *o);
  if (!o) {   /* out of memory: keep the order by running it once the stream is idle */
    drain(s);
    run(arg);
    return;
  }
  o->run = run;
  o->arg = arg;
  o->next = NULL;
  pthread_mutex_lock(&s->mu);
  if (s->tail) s->tail->next = o;
  else s->head = o;
  s->tail = o;
  s->issued++;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* Priorities: as a current GPU reports them (0 lowest, -5 highest); they are
 * recorded and reported, the host's scheduler runs every stream alike. */
enum { PRIO_LEAST = 0, PRIO_GREATEST = -5 };

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  RT_API();
  if (least) *least = PRIO_LEAST;
  if (greatest) *greatest = PRIO_GREATEST;
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *out, unsigned int flags, int prio) {
  RT_API();
  if (!out || (flags & ~(unsigned)cudaStreamNonBlocking)) return rt_err(cudaErrorInvalidValue);
  cudaStream_t s = calloc(1, sizeof *s);
  if (!s) return rt_err(cudaErrorMemoryAllocation);
  s->dev = rt_cur();
  s->flags = flags;
  s->prio = prio < PRIO_GREATEST ? PRIO_GREATEST : prio > PRIO_LEAST ? PRIO_LEAST : prio;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  pthread_t t;
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_mutex_lock(&all_mu);
  int rc = pthread_create(&t, &a, loop, s);
  pthread_attr_destroy(&a);
  if (rc) {
    pthread_mutex_unlock(&all_mu);
    free(s);
    return rt_err(cudaErrorMemoryAllocation);
  }
  s->refs = 1;
  s->next = all;
  all = s;
  if (!(flags & cudaStreamNonBlocking)) atomic_fetch_add(&nblocking, 1);
  pthread_mutex_unlock(&all_mu);
  *out = s;
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) {
  RT_API();
  return cudaStreamCreateWithPriority(s, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *s) { RT_API(); return cudaStreamCreateWithPriority(s, 0, 0); }

/* Returns at once; the stream's pending work still runs, then it is freed. */
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  RT_API();
  if (is_inline(s)) return rt_err(cudaErrorInvalidResourceHandle);
  pthread_mutex_lock(&all_mu);
  if (!live_locked(s)) {
    pthread_mutex_unlock(&all_mu);
    return rt_err(cudaErrorInvalidResourceHandle);
  }
  pthread_mutex_lock(&s->mu);
  s->dying = 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  pthread_mutex_unlock(&all_mu);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (rt_capturing(s)) return rt_err(cudaErrorStreamCaptureUnsupported);
  rt_stream_sync(s);
  return rt_err(rt_take_sticky(rt_stream_dev(s)));
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (rt_capturing(s)) return rt_err(cudaErrorStreamCaptureUnsupported);
  if (is_inline(s)) return cudaSuccess;
  pthread_mutex_lock(&s->mu);
  bool idle = s->done == s->issued;
  pthread_mutex_unlock(&s->mu);
  return idle ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int *flags) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!flags) return rt_err(cudaErrorInvalidValue);
  *flags = is_inline(s) ? 0 : s->flags;
  return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t s, int *dev) {
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!dev) return rt_err(cudaErrorInvalidValue);
  *dev = rt_stream_dev(s)->id;
  return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!prio) return rt_err(cudaErrorInvalidValue);
  *prio = is_inline(s) ? 0 : s->prio;
  return cudaSuccess;
}

/* ---- host functions in streams ---- */
typedef struct HostFn { cudaStream_t s; cudaStreamCallback_t cb; cudaHostFn_t fn; void *data; } HostFn;

static void run_host(void *p) {
  HostFn *h = p;
  if (h->cb) h->cb(h->s, rt_take_sticky(rt_stream_dev(h->s)), h->data);
  else h->fn(h->data);
  free(h);
}

static cudaError_t push_host(cudaStream_t s, cudaStreamCallback_t cb, cudaHostFn_t fn, void *data) {
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (rt_capturing(s)) {   /* a host node; a callback with a status cannot be captured (CUDA's rule) */
    if (cb) return rt_err(cudaErrorStreamCaptureUnsupported);
    return rt_cap_host(s, fn, data);
  }
  HostFn *h = malloc(sizeof *h);
  if (!h) return rt_err(cudaErrorMemoryAllocation);
  *h = (HostFn){s, cb, fn, data};
  rt_stream_push(s, run_host, h);
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *data, unsigned int flags) {
  RT_API();
  if (!cb || flags) return rt_err(cudaErrorInvalidValue);
  return push_host(s, cb, NULL, data);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data) {
  RT_API();
  if (!fn) return rt_err(cudaErrorInvalidValue);
  return push_host(s, NULL, fn, data);
}

/* ---- stream attributes: recorded and reported (a cache has no windows
 * here, and every stream synchronizes alike); the legacy and per-thread
 * streams keep theirs here ---- */
static struct CUstream_st inline_attrs = {.sync = cudaSyncPolicyAuto};

static cudaStream_t attrs_of(cudaStream_t s) { return is_inline(s) ? &inline_attrs : s; }
static size_t max_window(cudaStream_t s) { return (size_t)rt_stream_dev(s)->prop.accessPolicyMaxWindowSize; }

cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaLaunchAttributeID a, const cudaLaunchAttributeValue *v) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!v) return rt_err(cudaErrorInvalidValue);
  cudaStream_t t = attrs_of(s);
  switch (a) {
  case cudaLaunchAttributeAccessPolicyWindow:
    if (v->accessPolicyWindow.hitRatio < 0 || v->accessPolicyWindow.hitRatio > 1 ||
        (max_window(s) && v->accessPolicyWindow.num_bytes > max_window(s)))   /* (none before sm_80) */
      return rt_err(cudaErrorInvalidValue);
    t->apw = v->accessPolicyWindow;
    return cudaSuccess;
  case cudaLaunchAttributeSynchronizationPolicy:
    if (v->syncPolicy < cudaSyncPolicyAuto || v->syncPolicy > cudaSyncPolicyBlockingSync)
      return rt_err(cudaErrorInvalidValue);
    t->sync = v->syncPolicy;
    return cudaSuccess;
  case cudaLaunchAttributePriority:
    if (is_inline(s)) return rt_err(cudaErrorInvalidValue);
    s->prio = v->priority < PRIO_GREATEST ? PRIO_GREATEST : v->priority > PRIO_LEAST ? PRIO_LEAST : v->priority;
    return cudaSuccess;
  case cudaLaunchAttributeMemSyncDomain: case cudaLaunchAttributeMemSyncDomainMap: return cudaSuccess;
  default: return rt_err(cudaErrorInvalidValue);
  }
}

cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaLaunchAttributeID a, cudaLaunchAttributeValue *v) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!v) return rt_err(cudaErrorInvalidValue);
  cudaStream_t t = attrs_of(s);
  memset(v, 0, sizeof *v);
  switch (a) {
  case cudaLaunchAttributeAccessPolicyWindow: v->accessPolicyWindow = t->apw; return cudaSuccess;
  case cudaLaunchAttributeSynchronizationPolicy: v->syncPolicy = t->sync ? t->sync : cudaSyncPolicyAuto; return cudaSuccess;
  case cudaLaunchAttributePriority: v->priority = is_inline(s) ? 0 : s->prio; return cudaSuccess;
  case cudaLaunchAttributeMemSyncDomain: case cudaLaunchAttributeMemSyncDomainMap: return cudaSuccess;
  default: return rt_err(cudaErrorInvalidValue);
  }
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  RT_API();
  cudaError_t e = rt_stream_check(dst);
  if (!e) e = rt_stream_check(src);
  if (e) return rt_err(e);
  attrs_of(dst)->apw = attrs_of(src)->apw;
  attrs_of(dst)->sync = attrs_of(src)->sync;
  return cudaSuccess;
}

/* event.c: events. cudaEventRecord issues a record to a stream; the event
 * completes (and takes the host clock's time) when the stream reaches it.
 * Records are numbered: a query, a synchronization or a stream's wait
 * refers to the latest record issued before it, as CUDA specifies. An
 * event belongs to the device current at its creation: it is recorded only
 * in that device's streams and timed only against its events (CUDA's
 * rules); any device's stream may wait for it, any thread sync on it. An
 * interprocess event (cudaEventInterprocess) keeps its records in memory
 * other processes map (ipc.c): each that opened it records it and waits
 * for it. */
#include "rt.h"
#include <stdatomic.h>
#include <time.h>

struct CUevent_st {
  rt_dev *dev;
  unsigned flags;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned long long rec, done;   /* records issued, latest one completed */
  rt_ipcev *sh;                   /* interprocess: rec and done are these */
  bool imported;                  /* sh is another process's (cudaIpcOpenEventHandle) */
  cudaIpcEventHandle_t from;      /* (its handle) */
  double ms;                      /* host clock when `done` completed */
  int refs;                       /* (live_mu) the handle and pending operations */
  struct CUevent_st *next;        /* live events, to tell a bad handle */
};

static cudaEvent_t live;
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void hold(cudaEvent_t e) {
  pthread_mutex_lock(&live_mu);
  e->refs++;
  pthread_mutex_unlock(&live_mu);
}

static void release(cudaEvent_t e) {
  pthread_mutex_lock(&live_mu);
  int last = --e->refs == 0;
  pthread_mutex_unlock(&live_mu);
  if (!last) return;
  if (e->sh) rt_ipcev_free(e->sh, e->imported);
  pthread_mutex_destroy(&e->mu);
  pthread_cond_destroy(&e->cv);
  free(e);
}

static cudaError_t check(cudaEvent_t e) {
  pthread_mutex_lock(&live_mu);
  cudaEvent_t q = live;
  while (q && q != e) q = q->next;
  pthread_mutex_unlock(&live_mu);
  return e && q ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *out, unsigned int flags) {
  RT_API();
  if (!out || (flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess)))
    return rt_err(cudaErrorInvalidValue);
  /* an interprocess event must not time (CUDA's rule) */
  if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)) return rt_err(cudaErrorInvalidValue);
  cudaEvent_t e = calloc(1, sizeof *e);
  if (!e) return rt_err(cudaErrorMemoryAllocation);
  if ((flags & cudaEventInterprocess) && !(e->sh = rt_ipcev_new())) {
    free(e);
    return rt_err(cudaErrorMemoryAllocation);
  }
  e->dev = rt_cur();
  e->flags = flags;
  e->refs = 1;
  pthread_mutex_init(&e->mu, NULL);
  pthread_cond_init(&e->cv, NULL);
  pthread_mutex_lock(&live_mu);
  e->next = live;
  live = e;
  pthread_mutex_unlock(&live_mu);
  *out = e;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { RT_API(); return cudaEventCreateWithFlags(e, 0); }

/* Returns at once, as in CUDA: operations still pending on the event hold
 * references, and the last one frees it. */
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  RT_API();
  pthread_mutex_lock(&live_mu);
  cudaEvent_t *q = &live;
  while (*q && *q != e) q = &(*q)->next;
  if (!e || !*q) {
    pthread_mutex_unlock(&live_mu);
    return rt_err(cudaErrorInvalidResourceHandle);
  }
  *q = e->next;
  pthread_mutex_unlock(&live_mu);
  rt_event_forget(e);
  release(e);
  return cudaSuccess;
}

typedef struct Rec { cudaEvent_t e; unsigned long long n; } Rec;

/* A new record's number (interprocess: counted across the processes). */
static unsigned long long issue(cudaEvent_t e) {
  if (e->sh) return atomic_fetch_add(&e->sh->rec, 1) + 1;
  pthread_mutex_lock(&e->mu);
  unsigned long long n = ++e->rec;
  pthread_mutex_unlock(&e->mu);
  return n;
}

static void run_record(void *p) {
  Rec *r = p;
  cudaEvent_t e = r->e;
  if (e->sh) {
    rt_ipcev_complete(e->sh, r->n);
    release(e);
    free(r);
    return;
  }
  pthread_mutex_lock(&e->mu);
  if (r->n > e->done) {
    e->done = r->n;
    e->ms = now_ms();
  }
  pthread_cond_broadcast(&e->cv);
  pthread_mutex_unlock(&e->mu);
  release(e);
  free(r);
}

cudaError_t rt_event_check(cudaEvent_t e) { return check(e); }

/* a graph's event record node: a record issued and completed at once */
void rt_event_record_now(cudaEvent_t e) {
  if (e->sh) {
    rt_ipcev_complete(e->sh, issue(e));
    return;
  }
  pthread_mutex_lock(&e->mu);
  e->done = ++e->rec;
  e->ms = now_ms();
  pthread_cond_broadcast(&e->cv);
  pthread_mutex_unlock(&e->mu);
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  RT_API();
  cudaError_t err = check(e);
  if (!err) err = rt_stream_check(s);
  if (!err && rt_stream_dev(s) != e->dev) err = cudaErrorInvalidResourceHandle;
  if (err) return rt_err(err);
  if (rt_capturing(s)) return rt_cap_record(e, s);   /* the event now stands for the capture's nodes */
  Rec *r = malloc(sizeof *r);
  if (!r) return rt_err(cudaErrorMemoryAllocation);
  hold(e);
  r->e = e;
  r->n = issue(e);
  rt_stream_push(s, run_record, r);
  return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned int flags) {
  RT_API();
  if (flags) return rt_err(cudaErrorInvalidValue);
  return cudaEventRecord(e, s);
}

/* Wait until record n of e has completed. */
static void wait_rec(cudaEvent_t e, unsigned long long n) {
  if (e->sh) {
    rt_ipcev_wait(e->sh, n);
    return;
  }
  pthread_mutex_lock(&e->mu);
  while (e->done < n) pthread_cond_wait(&e->cv, &e->mu);
  pthread_mutex_unlock(&e->mu);
}

static unsigned long long latest(cudaEvent_t e) {
  if (e->sh) return atomic_load(&e->sh->rec);
  pthread_mutex_lock(&e->mu);
  unsigned long long n = e->rec;
  pthread_mutex_unlock(&e->mu);
  return n;
}

void rt_event_wait_latest(cudaEvent_t e) { wait_rec(e, latest(e)); }

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  RT_API();
  cudaError_t err = check(e);
  if (err) return rt_err(err);
  wait_rec(e, latest(e));
  return rt_err(rt_take_sticky(e->dev));
}

/* An event never recorded counts as complete, as in CUDA. */
cudaError_t cudaEventQuery(cudaEvent_t e) {
  RT_API();
  cudaError_t err = check(e);
  if (err) return rt_err(err);
  bool ready;
  if (e->sh) ready = atomic_load(&e->sh->done) >= atomic_load(&e->sh->rec);
  else {
    pthread_mutex_lock(&e->mu);
    ready = e->done == e->rec;
    pthread_mutex_unlock(&e->mu);
  }
  return ready ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  RT_API();
  if (!ms) return rt_err(cudaErrorInvalidValue);
  cudaError_t err = check(a);
  if (!err) err = check(b);
  if (err) return rt_err(err);
  if ((a->flags | b->flags) & cudaEventDisableTiming || a->dev != b->dev)
    return rt_err(cudaErrorInvalidResourceHandle);
  pthread_mutex_lock(&a->mu);
  pthread_mutex_lock(&b->mu);
  bool never = !a->rec || !b->rec, pending = a->done < a->rec || b->done < b->rec;
  double t = b->ms - a->ms;
  pthread_mutex_unlock(&b->mu);
  pthread_mutex_unlock(&a->mu);
  if (never) return rt_err(cudaErrorInvalidResourceHandle);
  if (pending) return rt_err(cudaErrorNotReady);
  *ms = (float)t;
  return cudaSuccess;
}

/* ---- a stream waiting for an event ---- */
static void run_wait(void *p) {
  Rec *r = p;
  wait_rec(r->e, r->n);
  release(r->e);
  free(r);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags) {
  RT_API();
  cudaError_t err = rt_stream_check(s);
  if (!err) err = check(e);
  if (err) return rt_err(err);
  if (flags & ~1u) return rt_err(cudaErrorInvalidValue);   /* cudaEventWaitDefault, cudaEventWaitExternal */
  if (rt_cap_wait(s, e, &err)) return err ? rt_err(err) : cudaSuccess;   /* joins or extends a capture */
  unsigned long long n = latest(e);
  if (!n) return cudaSuccess;   /* never recorded: nothing to wait for */
  Rec *r = malloc(sizeof *r);
  if (!r) return rt_err(cudaErrorMemoryAllocation);
  *r = (Rec){e, n};
  hold(e);
  rt_stream_push(s, run_wait, r);
  return cudaSuccess;
}

/* ---- interprocess events (ipc.c shares their state) ---- */
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *h, cudaEvent_t e) {
  RT_API();
  cudaError_t err = check(e);
  if (!err && !(e->flags & cudaEventInterprocess)) err = cudaErrorInvalidResourceHandle;   /* (CUDA's answer) */
  if (!err && !h) err = cudaErrorInvalidValue;
  if (!err && e->imported) *h = e->from;
  else if (!err) err = rt_ipcev_export(e->sh, h);
  return err ? rt_err(err) : cudaSuccess;
}

/* The event of another process, as if made here with cudaEventDisableTiming
 * (and cudaEventInterprocess: its handle may be passed on). */
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *out, cudaIpcEventHandle_t h) {
  RT_API();
  if (!out) return rt_err(cudaErrorInvalidValue);
  rt_ipcev *sh;
  cudaError_t err = rt_ipcev_import(&h, &sh);
  if (err) return rt_err(err);
  cudaEvent_t e = calloc(1, sizeof *e);
  if (!e) {
    rt_ipcev_free(sh, true);
    return rt_err(cudaErrorMemoryAllocation);
  }
  e->dev = rt_cur();
  e->flags = cudaEventDisableTiming | cudaEventInterprocess;
  e->refs = 1;
  e->sh = sh;
  e->imported = true;
  e->from = h;
  pthread_mutex_init(&e->mu, NULL);
  pthread_cond_init(&e->cv, NULL);
  pthread_mutex_lock(&live_mu);
  e->next = live;
  live = e;
  pthread_mutex_unlock(&live_mu);
  *out = e;
  return cudaSuccess;
}

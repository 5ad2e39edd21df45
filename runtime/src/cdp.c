/* cdp.c: dynamic parallelism with CUDA 12's semantics (CDP2). A thread of
 * a grid that reaches k<<<g, b, smem, s>>>(args) queues a child grid on
 * its parent (launch.c, cu_dlaunch: checked and its arguments copied as a
 * host launch's); device-side cudaMemcpyAsync and cudaMemsetAsync queue
 * there too. When the parent's blocks have all finished, the thread that
 * ran the parent runs its queue in order, each child (and, before the
 * next, that child's own children) to completion, then the grids launched
 * into cudaStreamTailLaunch; only then is the parent complete for its
 * stream, events and the host. So no worker ever waits for a child that
 * needs a worker, and a parent completes after all its descendants.
 *
 * This is one of the schedules CUDA allows: children launched by a block
 * into one stream run in order (the queue keeps each block's order: a
 * block runs on one worker), different streams may run in any order, and
 * CDP2 has no way for a parent to wait for a child (device-side
 * cudaDeviceSynchronize is refused at compile time, frontend/parse.c).
 * Device streams are therefore only names: created, used and destroyed as
 * CUDA says, never waited for. */
#include "rt.h"

typedef struct Kid {
  struct Kid *next;
  Job *job;          /* a child grid, or */
  rt_xfer x;         /* a copy or set */
} Kid;

/* The device-side last error is per thread. The few threads with one
 * pending are kept per worker (a block runs on one worker; its threads
 * end with it, so the oldest entry may go when the table is full). */
typedef struct Err { unsigned long long grid; cu_idx3 blk; unsigned tid; cudaError_t e; } Err;
enum { NERR = 64 };
static _Thread_local Err errs[NERR];
static _Thread_local int nerrs;

static int err_at(const cu_block *B, unsigned tid) {
  unsigned long long g = rt_grid_seq(B);
  for (int i = 0; i < nerrs; i++)
    if (errs[i].grid == g && errs[i].tid == tid && errs[i].blk.x == B->blockIdx.x && errs[i].blk.y == B->blockIdx.y &&
        errs[i].blk.z == B->blockIdx.z)
      return i;
  return -1;
}

cudaError_t rt_dlast(const cu_block *B, unsigned tid, cudaError_t e) {
  if (!e) return e;
  int i = err_at(B, tid);
  if (i < 0) {
    if (nerrs == NERR) memmove(errs, errs + 1, --nerrs * sizeof *errs);
    i = nerrs++;
  }
  errs[i] = (Err){rt_grid_seq(B), B->blockIdx, tid, e};
  return e;
}

static cudaError_t last(const cu_block *B, unsigned tid, int take) {
  int i = err_at(B, tid);
  if (i < 0) return cudaSuccess;
  cudaError_t e = errs[i].e;
  if (take) memmove(errs + i, errs + i + 1, (--nerrs - i) * sizeof *errs);
  return e;
}

void rt_kids_init(rt_kids *q) {
  pthread_mutex_init(&q->mu, NULL);
  q->head = q->tail = NULL;
  q->thead = q->ttail = NULL;
}

static void add(rt_kids *q, Kid *k, int tail) {
  pthread_mutex_lock(&q->mu);
  Kid **h = tail ? &q->thead : &q->head, **t = tail ? &q->ttail : &q->tail;
  if (*t) (*t)->next = k;
  else *h = k;
  *t = k;
  pthread_mutex_unlock(&q->mu);
}

int rt_kids_add(rt_kids *q, Job *j, void *stream) {
  Kid *k = calloc(1, sizeof *k);
  if (!k) {
    rt_job_free(j);
    return 1;
  }
  k->job = j;
  add(q, k, stream == (void *)cudaStreamTailLaunch);
  return 0;
}

static void run_list(Kid *k, int skip) {
  while (k) {
    Kid *n = k->next;
    if (k->job) {
      if (!skip) rt_job_run(k->job);
      rt_job_free(k->job);
    } else if (!skip) rt_xfer_run(&k->x);
    free(k);
    k = n;
  }
}

/* After the parent's blocks (on the thread that ran it); a parent that
 * faulted runs none, as a GPU aborts the context's work. */
void rt_kids_run(rt_kids *q, int failed) {
  run_list(q->head, failed);
  run_list(q->thead, failed);
  q->head = q->tail = q->thead = q->ttail = NULL;
  pthread_mutex_destroy(&q->mu);
}

/* ---- the runtime API in device code (cucc_dev.h: cu_d_*, each told the
 * calling thread) ---- */
#define DRT const cu_block *B, unsigned tid
#define ERR(e) rt_dlast(B, tid, (e))

static int xfer(DRT, rt_xfer *x, void *s) {
  Kid *k = calloc(1, sizeof *k);
  if (!k) return ERR(cudaErrorMemoryAllocation);
  k->x = *x;
  add(rt_grid_kids(B), k, s == (void *)cudaStreamTailLaunch);
  return cudaSuccess;
}

int cu_d_cudaMemcpyAsync(DRT, void *dst, void *src, size_t n, int kind, void *s) {
  rt_xfer x;
  cudaError_t e = rt_xfer_1d(&x, dst, src, n, (enum cudaMemcpyKind)kind);
  if (e) return ERR(e);
  return xfer(B, tid, &x, s);
}

int cu_d_cudaMemsetAsync(DRT, void *p, int v, size_t n, void *s) {
  rt_xfer x;
  struct cudaMemsetParams m = {0};
  m.dst = p;
  m.value = (unsigned)v;
  m.elementSize = 1;
  m.width = n;
  m.height = 1;
  cudaError_t e = rt_xfer_set(&x, &m);
  if (e) return ERR(e);
  return xfer(B, tid, &x, s);
}

/* device memory of the grid's device; freeing it does not wait for the
 * device as the host's cudaFree does (it would wait for itself) */
int cu_d_cudaMalloc(DRT, void *p, size_t n) { return ERR(rt_dev_malloc((void **)p, n, rt_grid_dev(B))); }
int cu_d_cudaFree(DRT, void *p) { return ERR(rt_dev_free(p)); }

int cu_d_cudaGetLastError(DRT) { return last(B, tid, 1); }
int cu_d_cudaPeekAtLastError(DRT) { return last(B, tid, 0); }
const char *cu_d_cudaGetErrorString(DRT, int e) {
  (void)B, (void)tid;
  return cudaGetErrorString((cudaError_t)e);
}
const char *cu_d_cudaGetErrorName(DRT, int e) {
  (void)B, (void)tid;
  return cudaGetErrorName((cudaError_t)e);
}

int cu_d_cudaGetDevice(DRT, void *dev) {
  if (!dev) return ERR(cudaErrorInvalidValue);
  *(int *)dev = rt_grid_dev(B)->id;
  return cudaSuccess;
}

int cu_d_cudaDeviceGetAttribute(DRT, void *v, int attr, int dev) {
  return ERR(cudaDeviceGetAttribute((int *)v, (enum cudaDeviceAttr)attr, dev));
}

int cu_d_cudaDeviceGetLimit(DRT, void *v, int limit) { return ERR(cudaDeviceGetLimit((size_t *)v, (enum cudaLimit)limit)); }

/* A stream of device code: CUDA accepts only non-blocking ones there. */
int cu_d_cudaStreamCreateWithFlags(DRT, void *s, unsigned flags) {
  if (!s || flags != cudaStreamNonBlocking) return ERR(cudaErrorInvalidValue);
  void *h = malloc(1);
  if (!h) return ERR(cudaErrorMemoryAllocation);
  *(void **)s = h;
  return cudaSuccess;
}

int cu_d_cudaStreamDestroy(DRT, void *s) {
  if ((uintptr_t)s <= (uintptr_t)cudaStreamFireAndForget) return ERR(cudaErrorInvalidResourceHandle);   /* named */
  free(s);
  return cudaSuccess;
}

/* events of device code order streams, which run in order here anyway */
int cu_d_cudaEventCreateWithFlags(DRT, void *e, unsigned flags) {
  if (!e || !(flags & cudaEventDisableTiming)) return ERR(cudaErrorInvalidValue);
  void *h = malloc(1);
  if (!h) return ERR(cudaErrorMemoryAllocation);
  *(void **)e = h;
  return cudaSuccess;
}
int cu_d_cudaEventRecord(DRT, void *e, void *s) {
  (void)s;
  return e ? cudaSuccess : ERR(cudaErrorInvalidResourceHandle);
}
int cu_d_cudaEventRecordWithFlags(DRT, void *e, void *s, unsigned flags) {
  (void)flags;
  return cu_d_cudaEventRecord(B, tid, e, s);
}
int cu_d_cudaStreamWaitEvent(DRT, void *s, void *e, unsigned flags) {
  (void)s, (void)flags;
  return e ? cudaSuccess : ERR(cudaErrorInvalidResourceHandle);
}
int cu_d_cudaEventDestroy(DRT, void *e) {
  if (!e) return ERR(cudaErrorInvalidResourceHandle);
  free(e);
  return cudaSuccess;
}

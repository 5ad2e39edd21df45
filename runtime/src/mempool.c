/* mempool.c: memory pools for stream-ordered allocation (cudaMallocAsync).
 * Memory is the host's and freed at once, so a pool keeps nothing back: it
 * names a device, says which devices may access its memory
 * (cudaMemPoolSetAccess: a GPU faults on a peer's pool memory without it,
 * and cucc --check reports it), and counts what is allocated from it. Each
 * device has a default pool, its current one until cudaDeviceSetMemPool. */
#include "rt.h"
#include <stdatomic.h>

struct CUmemPoolHandle_st {
  rt_dev *dev;
  _Atomic unsigned long long access;   /* bit d: device d may read and write it */
  _Atomic unsigned long long read;     /* bit d: device d may only read it */
  _Atomic size_t used, high, threshold;
  int reuse[3];                        /* cudaMemPoolReuse*: recorded */
  bool dflt;
  struct CUmemPoolHandle_st *next;     /* live pools */
};

static struct CUmemPoolHandle_st dflt[RT_MAXDEV];
static cudaMemPool_t live;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
  for (int d = 0; d < rt_ndev(); d++) {
    dflt[d].dev = rt_dev_at(d);
    dflt[d].access = 1ull << d;
    dflt[d].dflt = true;
    for (int i = 0; i < 3; i++) dflt[d].reuse[i] = 1;
  }
}

static cudaMemPool_t default_of(rt_dev *d) {
  pthread_once(&once, init);
  return &dflt[d->id];
}

bool rt_mempool_ok(cudaMemPool_t p) {
  if (!p) return false;
  pthread_once(&once, init);
  if (p >= dflt && p < dflt + rt_ndev()) return true;
  pthread_mutex_lock(&mu);
  cudaMemPool_t q = live;
  while (q && q != p) q = q->next;
  pthread_mutex_unlock(&mu);
  return q != NULL;
}

cudaMemPool_t rt_mempool_of(rt_dev *d) { return d->pool ? d->pool : default_of(d); }
rt_dev *rt_mempool_dev(cudaMemPool_t p) { return p->dev; }
unsigned long long rt_mempool_access(cudaMemPool_t p) { return atomic_load(&p->access) | atomic_load(&p->read); }

void rt_mempool_note(cudaMemPool_t p, size_t n, bool add) {
  if (!add) {
    atomic_fetch_sub(&p->used, n);
    return;
  }
  size_t u = atomic_fetch_add(&p->used, n) + n, h = atomic_load(&p->high);
  while (u > h && !atomic_compare_exchange_weak(&p->high, &h, u)) {}
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int dev) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  rt_dev *d = rt_dev_at(dev);
  if (!d) return rt_err(cudaErrorInvalidDevice);
  *p = default_of(d);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *p, int dev) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  rt_dev *d = rt_dev_at(dev);
  if (!d) return rt_err(cudaErrorInvalidDevice);
  *p = rt_mempool_of(d);
  return cudaSuccess;
}

/* a device's current pool must be one of its own */
cudaError_t cudaDeviceSetMemPool(int dev, cudaMemPool_t p) {
  RT_API();
  rt_dev *d = rt_dev_at(dev);
  if (!d) return rt_err(cudaErrorInvalidDevice);
  if (!rt_mempool_ok(p) || p->dev != d) return rt_err(cudaErrorInvalidValue);
  d->pool = p;
  return cudaSuccess;
}

/* CUDA 13's forms, by location and allocation type: a device's pinned
 * pool (pools of host memory are not offered) */
static cudaError_t loc_dev(const struct cudaMemLocation *l, enum cudaMemAllocationType t, int *dev) {
  if (!l || t != cudaMemAllocationTypePinned) return cudaErrorInvalidValue;
  if (l->type != cudaMemLocationTypeDevice) return cudaErrorNotSupported;
  if (!rt_dev_at(l->id)) return cudaErrorInvalidDevice;
  *dev = l->id;
  return cudaSuccess;
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *p, struct cudaMemLocation *l, enum cudaMemAllocationType t) {
  RT_API();
  int d;
  cudaError_t e = loc_dev(l, t, &d);
  return e ? rt_err(e) : cudaDeviceGetDefaultMemPool(p, d);
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t *p, struct cudaMemLocation *l, enum cudaMemAllocationType t) {
  RT_API();
  int d;
  cudaError_t e = loc_dev(l, t, &d);
  return e ? rt_err(e) : cudaDeviceGetMemPool(p, d);
}

cudaError_t cudaMemSetMemPool(struct cudaMemLocation *l, enum cudaMemAllocationType t, cudaMemPool_t p) {
  RT_API();
  int d;
  cudaError_t e = loc_dev(l, t, &d);
  return e ? rt_err(e) : cudaDeviceSetMemPool(d, p);
}

/* A pool may be made shareable by a file descriptor (as on Linux), though
 * exporting it to another process is not offered. */
cudaError_t cudaMemPoolCreate(cudaMemPool_t *out, const struct cudaMemPoolProps *props) {
  RT_API();
  if (!out || !props || props->allocType != cudaMemAllocationTypePinned ||
      props->location.type != cudaMemLocationTypeDevice ||
      (props->handleTypes != cudaMemHandleTypeNone && props->handleTypes != cudaMemHandleTypePosixFileDescriptor))
    return rt_err(cudaErrorInvalidValue);
  rt_dev *d = rt_dev_at(props->location.id);
  if (!d) return rt_err(cudaErrorInvalidDevice);
  cudaMemPool_t p = calloc(1, sizeof *p);
  if (!p) return rt_err(cudaErrorMemoryAllocation);
  p->dev = d;
  p->access = 1ull << d->id;
  for (int i = 0; i < 3; i++) p->reuse[i] = 1;
  pthread_mutex_lock(&mu);
  p->next = live;
  live = p;
  pthread_mutex_unlock(&mu);
  *out = p;
  return cudaSuccess;
}

/* A default pool cannot be destroyed; a device whose current pool is
 * destroyed goes back to its default. Memory still allocated from it stays
 * valid (it is the host's) until freed. */
cudaError_t cudaMemPoolDestroy(cudaMemPool_t p) {
  RT_API();
  if (!rt_mempool_ok(p) || p->dflt) return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&mu);
  cudaMemPool_t *q = &live;
  while (*q != p) q = &(*q)->next;
  *q = p->next;
  pthread_mutex_unlock(&mu);
  for (int d = 0; d < rt_ndev(); d++)
    if (rt_dev_at(d)->pool == p) rt_dev_at(d)->pool = NULL;
  p->dev = NULL;   /* (kept: allocations still point at it for their accounting) */
  return cudaSuccess;
}

/* The pool's own device always has read and write access: asking for
 * less is an invalid value, as CUDA answers. */
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t p, const struct cudaMemAccessDesc *v, size_t n) {
  RT_API();
  if (!rt_mempool_ok(p) || (n && !v)) return rt_err(cudaErrorInvalidValue);
  for (size_t i = 0; i < n; i++) {
    if (v[i].location.type != cudaMemLocationTypeDevice) return rt_err(cudaErrorInvalidValue);
    rt_dev *d = rt_dev_at(v[i].location.id);
    if (!d) return rt_err(cudaErrorInvalidDevice);
    enum cudaMemAccessFlags f = v[i].flags;
    if (f != cudaMemAccessFlagsProtNone && f != cudaMemAccessFlagsProtRead && f != cudaMemAccessFlagsProtReadWrite)
      return rt_err(cudaErrorInvalidValue);
    if (d == p->dev && f != cudaMemAccessFlagsProtReadWrite) return rt_err(cudaErrorInvalidValue);
  }
  for (size_t i = 0; i < n; i++) {
    unsigned long long bit = 1ull << v[i].location.id;
    if (v[i].flags == cudaMemAccessFlagsProtReadWrite) atomic_fetch_or(&p->access, bit);
    else atomic_fetch_and(&p->access, ~bit);
    if (v[i].flags == cudaMemAccessFlagsProtRead) atomic_fetch_or(&p->read, bit);
    else atomic_fetch_and(&p->read, ~bit);
  }
  return cudaSuccess;
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *f, cudaMemPool_t p, struct cudaMemLocation *loc) {
  RT_API();
  if (!f || !loc || !rt_mempool_ok(p) || loc->type != cudaMemLocationTypeDevice) return rt_err(cudaErrorInvalidValue);
  if (!rt_dev_at(loc->id)) return rt_err(cudaErrorInvalidDevice);
  unsigned long long bit = 1ull << loc->id;
  *f = atomic_load(&p->access) & bit ? cudaMemAccessFlagsProtReadWrite
       : atomic_load(&p->read) & bit ? cudaMemAccessFlagsProtRead
                                     : cudaMemAccessFlagsProtNone;
  return cudaSuccess;
}

/* Reserved memory is what is in use (nothing is kept back); the high
 * marks may only be reset to zero, the counters not set at all. */
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t p, enum cudaMemPoolAttr a, void *v) {
  RT_API();
  if (!rt_mempool_ok(p) || !v) return rt_err(cudaErrorInvalidValue);
  switch (a) {
  case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    p->reuse[a - 1] = *(int *)v != 0;
    return cudaSuccess;
  case cudaMemPoolAttrReleaseThreshold: atomic_store(&p->threshold, (size_t)*(unsigned long long *)v); return cudaSuccess;
  case cudaMemPoolAttrReservedMemHigh: case cudaMemPoolAttrUsedMemHigh:
    if (*(unsigned long long *)v) return rt_err(cudaErrorInvalidValue);
    atomic_store(&p->high, atomic_load(&p->used));
    return cudaSuccess;
  default: return rt_err(cudaErrorInvalidValue);
  }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t p, enum cudaMemPoolAttr a, void *v) {
  RT_API();
  if (!rt_mempool_ok(p) || !v) return rt_err(cudaErrorInvalidValue);
  switch (a) {
  case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    *(int *)v = p->reuse[a - 1];
    return cudaSuccess;
  case cudaMemPoolAttrReleaseThreshold: *(unsigned long long *)v = atomic_load(&p->threshold); return cudaSuccess;
  case cudaMemPoolAttrReservedMemCurrent: case cudaMemPoolAttrUsedMemCurrent:
    *(unsigned long long *)v = atomic_load(&p->used);
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemHigh: case cudaMemPoolAttrUsedMemHigh:
    *(unsigned long long *)v = atomic_load(&p->high);
    return cudaSuccess;
  default: return rt_err(cudaErrorInvalidValue);
  }
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t p, size_t keep) {
  RT_API();
  (void)keep;
  return rt_mempool_ok(p) ? cudaSuccess : rt_err(cudaErrorInvalidValue);
}

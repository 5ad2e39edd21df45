/* mem.c: device memory is host memory (the CPU is the device), but every
 * allocation is tracked, so that cudaFree of a pointer we did not hand out
 * fails as it does on a GPU and cudaDeviceReset can free everything. */
#include "rt.h"
#include <unistd.h>

typedef struct Alloc { void *p; size_t n; int host; struct Alloc *next; } Alloc;

/* cucc --check: a red zone after each allocation, so that an access just
 * past its end cannot land in the next one (memcheck tells them apart) */
#define REDZONE 256

#define NBUCKET 4096
static Alloc *tab[NBUCKET];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static unsigned bucket(const void *p) { return (unsigned)(((uintptr_t)p >> 8) * 2654435761u) % NBUCKET; }

/* kind: RT_CK_DEV, _HOST (pinned) or _MANAGED; cudaFreeHost frees only
 * host allocations, cudaFree the others */
static cudaError_t track(void **out, size_t n, int kind) {
  if (!out) return rt_err(cudaErrorInvalidValue);
  *out = NULL;
  if (n == 0) return cudaSuccess;
  void *p = NULL;
  int host = kind == RT_CK_HOST;
  if (n > (size_t)1 << 46 || posix_memalign(&p, 256, n + (cu_ck_what ? REDZONE : 0)) != 0)
    return rt_err(cudaErrorMemoryAllocation);
  Alloc *a = malloc(sizeof *a);
  if (!a) {
    free(p);
    return rt_err(cudaErrorMemoryAllocation);
  }
  a->p = p;
  a->n = n;
  a->host = host;
  pthread_mutex_lock(&mu);
  unsigned b = bucket(p);
  a->next = tab[b];
  tab[b] = a;
  pthread_mutex_unlock(&mu);
  rt_ck_alloc(p, n, kind, NULL);
  *out = p;
  return cudaSuccess;
}

static cudaError_t untrack(void *p, int host) {
  if (!p) return cudaSuccess;
  rt_ck_free(p, host ? RT_CK_HOST : RT_CK_DEV);   /* reports a bad one */
  pthread_mutex_lock(&mu);
  for (Alloc **a = &tab[bucket(p)]; *a; a = &(*a)->next)
    if ((*a)->p == p && (*a)->host == host) {
      Alloc *x = *a;
      *a = x->next;
      pthread_mutex_unlock(&mu);
      free(x->p);
      free(x);
      return cudaSuccess;
    }
  pthread_mutex_unlock(&mu);
  return rt_err(cudaErrorInvalidValue);
}

bool rt_is_alloc(const void *p) {
  pthread_mutex_lock(&mu);
  for (Alloc *a = tab[bucket(p)]; a; a = a->next)
    if (a->p == p) {
      pthread_mutex_unlock(&mu);
      return true;
    }
  pthread_mutex_unlock(&mu);
  return false;
}

cudaError_t cudaMalloc(void **p, size_t n) { return track(p, n, RT_CK_DEV); }
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int flags) {
  (void)flags;
  return track(p, n, RT_CK_MANAGED);
}
cudaError_t cudaMallocHost(void **p, size_t n) { return track(p, n, RT_CK_HOST); }
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags) {
  (void)flags;
  return track(p, n, RT_CK_HOST);
}
cudaError_t cudaFree(void *p) { return untrack(p, 0); }
cudaError_t cudaFreeHost(void *p) { return untrack(p, 1); }

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind) {
  if ((unsigned)kind > cudaMemcpyDefault) return rt_err(cudaErrorInvalidMemcpyDirection);
  cudaError_t e = rt_take_sticky();
  if (e) return rt_err(e);
  if (n && (!dst || !src)) return rt_err(cudaErrorInvalidValue);
  if (!rt_ck_range(dst, n, "cudaMemcpy destination") || !rt_ck_range(src, n, "cudaMemcpy source"))
    return rt_err(cudaErrorInvalidValue);
  if (n) memmove(dst, src, n);
  rt_ck_written(dst, n);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                            cudaStream_t s) {
  (void)s;
  return cudaMemcpy(dst, src, n, kind);
}

cudaError_t cudaMemset(void *p, int v, size_t n) {
  if (n && !p) return rt_err(cudaErrorInvalidValue);
  if (!rt_ck_range(p, n, "cudaMemset")) return rt_err(cudaErrorInvalidValue);
  if (n) memset(p, v, n);
  rt_ck_written(p, n);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
  (void)s;
  return cudaMemset(p, v, n);
}

cudaError_t cudaMemGetInfo(size_t *fr, size_t *total) {
  long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
  if (total) *total = (size_t)pages * (size_t)ps;
  if (fr) *fr = (size_t)avail * (size_t)ps;
  return cudaSuccess;
}

cudaError_t cudaDeviceReset(void) {
  pthread_mutex_lock(&mu);
  for (int b = 0; b < NBUCKET; b++) {
    for (Alloc *a = tab[b], *nx; a; a = nx) {
      nx = a->next;
      free(a->p);
      free(a);
    }
    tab[b] = NULL;
  }
  pthread_mutex_unlock(&mu);
  rt_ck_reset();
  return cudaSuccess;
}

cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

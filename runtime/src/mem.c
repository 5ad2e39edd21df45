/* mem.c: device memory is host memory (the CPU is the device), but every
 * allocation and registration is a region of a sorted table, so that
 *  - cudaFree of a pointer we did not hand out fails as it does on a GPU,
 *    and cudaDeviceReset can free everything;
 *  - an asynchronous copy knows whether its host memory is page-locked (a
 *    region) or pageable: pageable copies, as in CUDA, run at once after
 *    the stream's earlier work, page-locked ones are queued to the stream;
 *  - cudaHostGetDevicePointer and cudaPointerGetAttributes can answer;
 *  - each device counts its memory: device memory beyond a device's share
 *    of the host's is out of memory, as on a GPU.
 * cudaMalloc's memory comes from arena.c, where another process can map it
 * (CUDA IPC, ipc.c); the rest from malloc. */
#include "rt.h"
#include <stdatomic.h>
#include <unistd.h>

enum { R_DEV, R_HOST, R_MANAGED, R_REG, R_GRAPH, R_IPC };   /* R_REG: the user's memory, cudaHostRegister;
                                                     R_GRAPH: a graph allocation (graph.c owns it);
                                                     R_IPC: another process's, opened (ipc.c owns it) */
typedef struct Region {
  char *p;
  size_t n;
  int kind;
  unsigned flags;
  rt_dev *dev;                    /* the device it was allocated on (current then) */
  struct CUmemPoolHandle_st *pool;   /* stream-ordered: the pool it came from */
  unsigned long long id;          /* R_DEV: its number, for IPC handles */
} Region;

static Region *regs;
static size_t nregs, capregs;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Index of the first region starting above p (mu held). */
static size_t upper(const void *p) {
  size_t lo = 0, hi = nregs;
  while (lo < hi) {
    size_t m = (lo + hi) / 2;
    if ((const char *)regs[m].p <= (const char *)p) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/* The region containing p, copied to *out (false if none). */
static bool lookup(const void *p, Region *out) {
  pthread_mutex_lock(&mu);
  size_t i = upper(p);
  bool in = i > 0 && (const char *)p < regs[i - 1].p + regs[i - 1].n;
  if (in && out) *out = regs[i - 1];
  pthread_mutex_unlock(&mu);
  return in;
}

bool rt_is_alloc(const void *p) { return lookup(p, NULL); }

/* Device memory at p: its device, and in *access the devices that may
 * reach it (its own, the peers that enabled access to it, or those its
 * pool gives access to); -1 for any other memory. */
int rt_alloc_dev(const void *p, unsigned long long *access) {
  Region r;
  if (!lookup(p, &r) || r.kind != R_DEV) return -1;
  unsigned long long a = 1ull << r.dev->id;
  if (r.pool) a |= rt_mempool_access(r.pool);
  else
    for (int d = 0; d < rt_ndev(); d++)
      if (atomic_load(&rt_dev_at(d)->peers) >> r.dev->id & 1) a |= 1ull << d;
  *access = a;
  return r.dev->id;
}

/* Adds [p, p+n); false if it overlaps a region or memory ran out. */
static bool insert(void *p, size_t n, int kind, unsigned flags, rt_dev *dev, struct CUmemPoolHandle_st *pool) {
  pthread_mutex_lock(&mu);
  size_t i = upper(p);
  bool ok = !(i > 0 && (char *)p < regs[i - 1].p + regs[i - 1].n) && !(i < nregs && (char *)p + n > regs[i].p);
  if (ok && nregs == capregs) {
    Region *nr = realloc(regs, (capregs ? capregs * 2 : 256) * sizeof *regs);
    if (nr) {
      regs = nr;
      capregs = capregs ? capregs * 2 : 256;
    } else ok = false;
  }
  if (ok) {
    memmove(regs + i + 1, regs + i, (nregs - i) * sizeof *regs);
    static unsigned long long ids;
    regs[i] = (Region){p, n, kind, flags, dev, pool, ++ids};
    nregs++;
  }
  pthread_mutex_unlock(&mu);
  return ok;
}

/* Device memory counts against its device (and its pool). */
static void account(const Region *r, bool add) {
  if (r->kind != R_DEV) return;
  if (add) atomic_fetch_add(&r->dev->used, r->n);
  else atomic_fetch_sub(&r->dev->used, r->n);
  if (r->pool) rt_mempool_note(r->pool, r->n, add);
}

/* Removes the region that starts at p and is of one of the kinds in mask
 * (copied to *out). */
static bool remove_at(void *p, unsigned mask, Region *out) {
  pthread_mutex_lock(&mu);
  size_t i = upper(p);
  bool ok = i > 0 && regs[i - 1].p == (char *)p && (mask >> regs[i - 1].kind & 1);
  if (ok) {
    if (out) *out = regs[i - 1];
    account(&regs[i - 1], false);
    memmove(regs + i - 1, regs + i, (nregs - i) * sizeof *regs);
    nregs--;
  }
  pthread_mutex_unlock(&mu);
  return ok;
}

/* cucc --check: a red zone after each allocation, so that an access just
 * past its end cannot land in the next one (memcheck tells them apart) */
#define REDZONE 256

static int ck_kind(int kind) { return kind == R_HOST ? RT_CK_HOST : kind == R_MANAGED ? RT_CK_MANAGED : RT_CK_DEV; }

/* cudaMalloc's memory (not a pool's: CUDA shares those otherwise) is the
 * arena's, which another process can map; the rest malloc's (cudaMalloc's
 * too where no arena can be had: it has no IPC handle). */
static bool shared(int kind, struct CUmemPoolHandle_st *pool) { return kind == R_DEV && !pool; }

static void *get(size_t n, int kind, struct CUmemPoolHandle_st *pool) {
  void *p = NULL;
  n += cu_ck_what ? REDZONE : 0;
  if (shared(kind, pool) && (p = rt_arena_alloc(n))) return p;
  return posix_memalign(&p, 256, n) == 0 ? p : NULL;
}

static void put(const Region *r) {
  if (!shared(r->kind, r->pool) || !rt_arena_free(r->p, r->n + (cu_ck_what ? REDZONE : 0))) free(r->p);
}

/* n bytes of device memory more on d: past its memory? (racing
 * allocations may both fit; the host's memory is the real limit) */
static bool full(rt_dev *d, size_t n) { return n > d->total || atomic_load(&d->used) > d->total - n; }

static cudaError_t alloc_on(void **out, size_t n, int kind, unsigned flags, rt_dev *dev,
                            struct CUmemPoolHandle_st *pool) {
  if (!out) return rt_err(cudaErrorInvalidValue);
  *out = NULL;
  if (n == 0) return cudaSuccess;
  void *p = NULL;
  if (n > (size_t)1 << 46 || (kind == R_DEV && full(dev, n)) || !(p = get(n, kind, pool)))
    return rt_err(cudaErrorMemoryAllocation);
  Region r = {p, n, kind, flags, dev, pool, 0};
  if (!insert(p, n, kind, flags, dev, pool)) {
    put(&r);
    return rt_err(cudaErrorMemoryAllocation);
  }
  account(&r, true);
  rt_ck_alloc(p, n, ck_kind(kind), NULL);
  *out = p;
  return cudaSuccess;
}

static cudaError_t alloc(void **out, size_t n, int kind, unsigned flags) {
  cudaError_t e = rt_sticky();
  if (e) return e;
  return alloc_on(out, n, kind, flags, rt_cur(), NULL);
}

/* (not counted in the device's memory: its pages come and go with trims) */
bool rt_region_add(void *p, size_t n, int dev) {
  if (!insert(p, n, R_GRAPH, 0, rt_dev_at(dev), NULL)) return false;
  rt_ck_alloc(p, n, RT_CK_DEV, NULL);
  return true;
}

void rt_region_drop(void *p) {
  if (remove_at(p, 1u << R_GRAPH, NULL)) rt_ck_free(p, RT_CK_DEV);
}

bool rt_region_ipc_add(void *p, size_t n) { return insert(p, n, R_IPC, 0, rt_cur(), NULL); }
void rt_region_ipc_drop(void *p) { remove_at(p, 1u << R_IPC, NULL); }

bool rt_ipc_source(const void *p, void **base, size_t *n, unsigned long long *id, int *dev) {
  Region r;
  if (!lookup(p, &r) || !shared(r.kind, r.pool)) return false;
  *base = r.p;
  *n = r.n;
  *id = r.id;
  *dev = r.dev->id;
  return true;
}

/* Freeing is a synchronizing call in CUDA: the device may still use it. */
static cudaError_t release(void *p, unsigned mask) {
  if (!p) return cudaSuccess;
  rt_sync_all();
  cudaError_t e = rt_sticky();
  if (e) return e;
  if ((mask >> R_DEV & 1) && rt_graph_mem_free(p)) return cudaSuccess;   /* a graph's allocation */
  rt_ck_free(p, mask & 1u << R_HOST ? RT_CK_HOST : RT_CK_DEV);   /* cucc --check reports a bad one */
  Region r;
  if (!remove_at(p, mask, &r)) return rt_err(cudaErrorInvalidValue);
  put(&r);
  return cudaSuccess;
}

cudaError_t cudaMalloc(void **p, size_t n) { RT_API(); return alloc(p, n, R_DEV, 0); }

/* cudaMalloc and cudaFree in device code (cdp.c): a free must not wait for
 * the device, whose grid is the caller */
cudaError_t rt_dev_malloc(void **p, size_t n, rt_dev *d) { return alloc_on(p, n, R_DEV, 0, d ? d : rt_cur(), NULL); }
cudaError_t rt_dev_free(void *p) {
  if (!p) return cudaSuccess;
  if (!rt_ck_free(p, RT_CK_DEV)) return cudaErrorInvalidValue;
  Region r;
  if (!remove_at(p, 1u << R_DEV, &r)) return cudaErrorInvalidValue;
  put(&r);   /* (to the arena, as cudaFree) */
  return cudaSuccess;
}
cudaError_t cudaMallocHost(void **p, size_t n) { RT_API(); return alloc(p, n, R_HOST, 0); }

cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int flags) {
  RT_API();
  /* size 0 succeeds with no memory, as cudaMalloc (recorded on an H100) */
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return rt_err(cudaErrorInvalidValue);
  return alloc(p, n, R_MANAGED, flags);
}

cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags) {
  RT_API();
  if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
    return rt_err(cudaErrorInvalidValue);
  return alloc(p, n, R_HOST, flags);
}

cudaError_t cudaFree(void *p) { RT_API(); return release(p, 1u << R_DEV | 1u << R_MANAGED); }

/* Stream-ordered allocation: memory allocated at once is valid at its
 * stream's point too; a free waits for the stream's earlier work. It comes
 * from the pool given, else from the current pool of the stream's device.
 * While the stream captures, it is a graph's allocation (graph.c). */
cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, cudaMemPool_t pool, cudaStream_t s) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (!e && !rt_mempool_ok(pool)) e = cudaErrorInvalidValue;
  if (e) return rt_err(e);
  if (rt_capturing(s)) return rt_cap_malloc(s, p, n, rt_mempool_dev(pool)->id);   /* on the pool's device */
  return alloc_on(p, n, R_DEV, 0, rt_mempool_dev(pool), pool);
}

cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  rt_dev *d = rt_stream_dev(s);
  if (rt_capturing(s)) return rt_cap_malloc(s, p, n, d->id);   /* a graph's allocation node */
  return alloc_on(p, n, R_DEV, 0, d, rt_mempool_of(d));
}

static void run_free(void *p) {
  if (rt_graph_mem_free(p)) return;
  rt_ck_free(p, RT_CK_DEV);
  Region r;
  if (remove_at(p, 1u << R_DEV, &r)) put(&r);
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!p) return cudaSuccess;
  Region r;
  if (!lookup(p, &r) || r.p != (char *)p || (r.kind != R_DEV && r.kind != R_GRAPH))
    return rt_err(cudaErrorInvalidValue);
  if (rt_capturing(s)) return rt_cap_free(s, p);   /* a graph's free node */
  rt_stream_push(s, run_free, p);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void *p) { RT_API(); return release(p, 1u << R_HOST); }

/* Pitched allocations: rows padded to the texture pitch alignment of
 * current GPUs (512 bytes), as cudaMallocPitch pads them. */
enum { PITCH_ALIGN = 512 };

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h) {
  RT_API();
  if (!p || !pitch) return rt_err(cudaErrorInvalidValue);
  size_t pt = (w + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
  if (h && pt > SIZE_MAX / h) return rt_err(cudaErrorMemoryAllocation);
  *pitch = pt;
  return alloc(p, pt * h, R_DEV, 0);
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent e) {
  RT_API();
  if (!pp) return rt_err(cudaErrorInvalidValue);
  size_t pitch = 0;
  void *p = NULL;
  if (e.depth && e.height > SIZE_MAX / e.depth) return rt_err(cudaErrorMemoryAllocation);
  cudaError_t err = cudaMallocPitch(&p, &pitch, e.width, e.height * e.depth);
  if (err) return err;
  *pp = make_cudaPitchedPtr(p, pitch, e.width, e.height);
  return cudaSuccess;
}

/* ---- page-locked host memory ---- */
cudaError_t cudaHostRegister(void *p, size_t n, unsigned int flags) {
  RT_API();
  if (!p || !n || (flags & ~(unsigned)(cudaHostRegisterPortable | cudaHostRegisterMapped |
                                      cudaHostRegisterIoMemory | cudaHostRegisterReadOnly)))
    return rt_err(cudaErrorInvalidValue);
  if (!insert(p, n, R_REG, flags, rt_cur(), NULL)) return rt_err(cudaErrorHostMemoryAlreadyRegistered);
  rt_ck_alloc(p, n, RT_CK_RT, NULL);   /* (--check: mapped: device code may use it) */
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *p) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  rt_sync_all();
  if (remove_at(p, 1u << R_REG, NULL)) {
    rt_ck_free(p, RT_CK_RT);
    return cudaSuccess;
  }
  /* inside a registered range but not its start: an invalid value (H100) */
  Region r;
  return rt_err(lookup(p, &r) && r.kind == R_REG ? cudaErrorInvalidValue : cudaErrorHostMemoryNotRegistered);
}

/* Mapped memory: the device address of page-locked memory is its host
 * address (unified addressing). */
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned int flags) {
  RT_API();
  Region r;
  if (!d || flags) return rt_err(cudaErrorInvalidValue);
  if (!lookup(h, &r) || (r.kind != R_HOST && r.kind != R_REG)) return rt_err(cudaErrorInvalidValue);
  *d = h;
  return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned int *flags, void *h) {
  RT_API();
  Region r;
  if (!flags) return rt_err(cudaErrorInvalidValue);
  if (!lookup(h, &r) || (r.kind != R_HOST && r.kind != R_REG)) return rt_err(cudaErrorInvalidValue);
  *flags = r.flags;
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p) {
  RT_API();
  static const enum cudaMemoryType types[] = {cudaMemoryTypeDevice, cudaMemoryTypeHost, cudaMemoryTypeManaged,
                                              cudaMemoryTypeHost, cudaMemoryTypeDevice, cudaMemoryTypeDevice};
  Region r;
  if (!a) return rt_err(cudaErrorInvalidValue);
  memset(a, 0, sizeof *a);
  a->device = -2;   /* cudaInvalidDeviceId, for memory CUDA does not know */
  if (!lookup(p, &r)) return cudaSuccess;
  a->type = types[r.kind];
  a->device = r.dev->id;
  a->devicePointer = (void *)p;
  a->hostPointer = r.kind == R_DEV || r.kind == R_GRAPH || r.kind == R_IPC ? NULL : (void *)p;
  return cudaSuccess;
}

/* The current device's memory: its share of the host's, less what it has
 * allocated, and no more than the host has free. */
cudaError_t cudaMemGetInfo(size_t *fr, size_t *total) {
  RT_API();
  long avail = sysconf(_SC_AVPHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
  if (!fr || !total) return rt_err(cudaErrorInvalidValue);
  rt_dev *d = rt_cur();
  size_t used = atomic_load(&d->used), host = (size_t)avail * (size_t)ps;
  *total = d->total;
  *fr = used < d->total ? d->total - used : 0;
  if (*fr > host) *fr = host;
  return cudaSuccess;
}

/* Every allocation of d's (the memory the program registered stays); with
 * one device, cucc --check forgets them all at once. */
void rt_mem_reset(rt_dev *d) {
  pthread_mutex_lock(&mu);
  size_t k = 0;
  for (size_t i = 0; i < nregs; i++) {
    Region *r = &regs[i];
    if (r->kind == R_REG || r->kind == R_GRAPH || r->kind == R_IPC || r->dev != d) {   /* (graph.c, ipc.c own theirs) */
      regs[k++] = *r;
      continue;
    }
    account(r, false);
    if (rt_ndev() > 1) rt_ck_free(r->p, r->kind == R_HOST ? RT_CK_HOST : RT_CK_DEV);
    put(r);
  }
  nregs = k;
  pthread_mutex_unlock(&mu);
  if (rt_ndev() == 1) rt_ck_reset();
}

cudaError_t cudaThreadExit(void) { RT_API(); return cudaDeviceReset(); }

/* ---- copies and sets: one strided operation for 1-D, 2-D and 3-D ---- */
typedef rt_xfer Xfer;

/* CUCC_PROFILE=summary's name of a transfer: cudaMemcpyDefault's
 * direction from where its pointers lie */
static int op_of(const Xfer *x) {
  RT_API();
  if (!x->src) return RT_OP_SET;
  int k = x->kind;
  if (k == cudaMemcpyDefault) {
    Region r;
    bool d = lookup(x->dst, &r) && (r.kind == R_DEV || r.kind == R_MANAGED || r.kind == R_IPC);
    bool s = lookup(x->src, &r) && (r.kind == R_DEV || r.kind == R_MANAGED || r.kind == R_IPC);
    k = s ? (d ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost) : d ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost;
  }
  return k == cudaMemcpyHostToDevice ? RT_OP_HTOD : k == cudaMemcpyDeviceToHost ? RT_OP_DTOH
       : k == cudaMemcpyDeviceToDevice ? RT_OP_DTOD : RT_OP_HTOH;
}

void rt_xfer_run(const Xfer *x) {
  long long t0 = rt_prof_sum ? rt_prof_now() : 0;
  for (size_t z = 0; z < x->d; z++)
    for (size_t y = 0; y < x->h; y++) {
      char *d = x->dst + z * x->dslice + y * x->dpitch;
      if (x->src) memmove(d, x->src + z * x->sslice + y * x->spitch, x->w);
      else if (x->esize <= 1) memset(d, (int)x->val, x->w);
      else   /* a graph's memset node of 2- or 4-byte elements */
        for (size_t i = 0; i + (size_t)x->esize <= x->w; i += x->esize) {
          if (x->esize == 2) {
            unsigned short v = (unsigned short)x->val;
            memcpy(d + i, &v, 2);
          } else memcpy(d + i, &x->val, 4);
        }
      rt_ck_written(d, x->w);   /* initcheck */
    }
  if (rt_prof_sum) rt_prof_memop(op_of(x), x->w * x->h * x->d, rt_prof_now() - t0);
}
#define run_xfer rt_xfer_run

static void run_queued(void *p) {
  run_xfer(p);
  free(p);
}

/* Is every byte the transfer touches on the host side page-locked or
 * device memory? Then it may wait in a queue. */
static bool lockable(const Xfer *x) { return lookup(x->dst, NULL) && (!x->src || lookup(x->src, NULL)); }

/* A synchronous transfer is an operation of the legacy default stream. */
static cudaError_t xfer_sync(const Xfer *x) {
  if (!x->w || !x->h || !x->d) return cudaSuccess;
  rt_legacy_sync(rt_cur());
  run_xfer(x);
  return cudaSuccess;
}

/* Synchronous copies also report a kernel that failed before them. */
static cudaError_t xfer_checked(const Xfer *x) {
  rt_legacy_sync(rt_cur());
  cudaError_t e = rt_take_sticky(rt_cur());
  return e ? rt_err(e) : xfer_sync(x);
}

static cudaError_t xfer_async(const Xfer *x, cudaStream_t s) {
  cudaError_t e = rt_stream_check(s);
  if (!e) e = rt_take_sticky(rt_stream_dev(s));
  if (e) return rt_err(e);
  if (!x->w || !x->h || !x->d) return cudaSuccess;
  if (rt_capturing(s)) return rt_cap_xfer(s, x);   /* a node of the graph being captured */
  Xfer *q;
  if (rt_stream_queued(s) && lockable(x) && (q = malloc(sizeof *q))) {
    *q = *x;
    rt_stream_push(s, run_queued, q);
  } else {
    rt_stream_sync(s);
    run_xfer(x);
  }
  return cudaSuccess;
}

static cudaError_t check_kind(enum cudaMemcpyKind k) {
  return (unsigned)k > cudaMemcpyDefault ? rt_err(cudaErrorInvalidMemcpyDirection) : cudaSuccess;
}

/* n bytes from p run past the end of the allocation p lies in? An
 * invalid value, as on an H100 (reported by cucc --check too). */
static bool past_end(const void *p, size_t n, const char *api) {
  Region r;
  if (!n || !lookup(p, &r) || n <= (size_t)(r.p + r.n - (const char *)p)) return false;
  rt_ck_range(p, n, api);
  return true;
}

static cudaError_t linear(Xfer *x, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind) {
  if (check_kind(kind)) return cudaErrorInvalidMemcpyDirection;
  if (n && (!dst || !src)) return rt_err(cudaErrorInvalidValue);
  if (past_end(dst, n, "cudaMemcpy destination") || past_end(src, n, "cudaMemcpy source"))
    return rt_err(cudaErrorInvalidValue);
  *x = (Xfer){dst, src, 0, 1, n, 1, 1, n, n, n, n, kind};
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = linear(&x, dst, src, n, kind);
  if (e) return e;
  return xfer_checked(&x);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t s) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = linear(&x, dst, src, n, kind);
  return e ? e : xfer_async(&x, s);
}

/* Between devices: every device's memory is the host's, so a peer copy is
 * a copy. The synchronous one waits for the legacy streams of the current,
 * the source and the destination devices (CUDA's rule); neither needs peer
 * access enabled. */
cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n) {
  RT_API();
  rt_dev *d = rt_dev_at(dd), *s = rt_dev_at(sd);
  if (!d || !s) return rt_err(cudaErrorInvalidDevice);
  Xfer x = {0};
  cudaError_t e = linear(&x, dst, src, n, cudaMemcpyDeviceToDevice);
  if (e) return e;
  rt_legacy_sync(d);
  rt_legacy_sync(s);
  return xfer_checked(&x);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dd, const void *src, int sd, size_t n, cudaStream_t s) {
  RT_API();
  if (!rt_dev_at(dd) || !rt_dev_at(sd)) return rt_err(cudaErrorInvalidDevice);
  return cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, s);
}

static cudaError_t pitched(Xfer *x, void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
                          enum cudaMemcpyKind kind) {
  if (check_kind(kind)) return cudaErrorInvalidMemcpyDirection;
  if (w && h && (!dst || !src)) return rt_err(cudaErrorInvalidValue);
  if (h > 1 && (w > dp || w > sp)) return rt_err(cudaErrorInvalidPitchValue);
  *x = (Xfer){dst, src, 0, 1, w, h, 1, dp, sp, 0, 0, kind};
  return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
                         enum cudaMemcpyKind kind) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = pitched(&x, dst, dp, src, sp, w, h, kind);
  if (e) return e;
  return xfer_checked(&x);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
                              enum cudaMemcpyKind kind, cudaStream_t s) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = pitched(&x, dst, dp, src, sp, w, h, kind);
  return e ? e : xfer_async(&x, s);
}

/* 3-D copies between pitched pointers and CUDA arrays. For linear memory
 * positions and the extent's width are in bytes, for an array in elements. */
static cudaError_t box(Xfer *x, const struct cudaMemcpy3DParms *p) {
  if (!p) return rt_err(cudaErrorInvalidValue);
  if (check_kind(p->kind)) return cudaErrorInvalidMemcpyDirection;
  if (!p->srcArray == !p->srcPtr.ptr || !p->dstArray == !p->dstPtr.ptr) return rt_err(cudaErrorInvalidValue);
  size_t se = 1, de = 1;
  struct cudaPitchedPtr s = p->srcArray ? rt_array_ptr(p->srcArray, &se) : p->srcPtr;
  struct cudaPitchedPtr d = p->dstArray ? rt_array_ptr(p->dstArray, &de) : p->dstPtr;
  size_t unit = p->srcArray ? se : de;   /* an array's extent counts its elements */
  struct cudaExtent e = p->extent;
  e.width *= p->srcArray || p->dstArray ? unit : 1;
  struct cudaPos sp = p->srcPos, dp = p->dstPos;
  sp.x *= se;
  dp.x *= de;
  if ((e.height > 1 || e.depth > 1) && (sp.x + e.width > s.pitch || dp.x + e.width > d.pitch))
    return rt_err(cudaErrorInvalidPitchValue);
  if (e.depth > 1 && (sp.y + e.height > s.ysize || dp.y + e.height > d.ysize)) return rt_err(cudaErrorInvalidValue);
  size_t ss = s.pitch * s.ysize, ds = d.pitch * d.ysize;
  *x = (Xfer){(char *)d.ptr + dp.z * ds + dp.y * d.pitch + dp.x, (const char *)s.ptr + sp.z * ss + sp.y * s.pitch + sp.x,
              0, 1, e.width, e.height, e.depth, d.pitch, s.pitch, ds, ss, p->kind};
  return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = box(&x, p);
  if (e) return e;
  return xfer_checked(&x);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = box(&x, p);
  return e ? e : xfer_async(&x, s);
}

static cudaError_t setter(Xfer *x, void *p, size_t pitch, int v, size_t w, size_t h, size_t d, size_t slice) {
  if (w && h && d && !p) return rt_err(cudaErrorInvalidValue);
  if (h > 1 && w > pitch) return rt_err(cudaErrorInvalidValue);
  if (h == 1 && d == 1 && past_end(p, w, "cudaMemset")) return rt_err(cudaErrorInvalidValue);
  *x = (Xfer){p, NULL, (unsigned)v & 0xffu, 1, w, h, d, pitch, 0, slice, 0, 0};
  return cudaSuccess;
}

cudaError_t rt_xfer_1d(Xfer *x, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind) {
  return linear(x, dst, src, n, kind);
}
cudaError_t rt_xfer_3d(Xfer *x, const struct cudaMemcpy3DParms *p) { return box(x, p); }

/* a graph's memset node: rows of width elements of 1, 2 or 4 bytes */
cudaError_t rt_xfer_set(Xfer *x, const struct cudaMemsetParams *p) {
  if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)) return cudaErrorInvalidValue;
  size_t w = p->width * p->elementSize, h = p->height ? p->height : 1;
  cudaError_t e = setter(x, p->dst, h > 1 ? p->pitch : w, 0, w, h, 1, 0);
  if (e) return e;
  x->val = p->elementSize == 4 ? p->value : p->elementSize == 2 ? p->value & 0xffffu : p->value & 0xffu;
  x->esize = (int)p->elementSize;
  return cudaSuccess;
}

cudaError_t cudaMemset(void *p, int v, size_t n) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = setter(&x, p, n, v, n, 1, 1, n);
  return e ? e : xfer_checked(&x);
}

cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = setter(&x, p, n, v, n, 1, 1, n);
  return e ? e : xfer_async(&x, s);
}

cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t w, size_t h) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = setter(&x, p, pitch, v, w, h, 1, 0);
  return e ? e : xfer_checked(&x);
}

cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t w, size_t h, cudaStream_t s) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = setter(&x, p, pitch, v, w, h, 1, 0);
  return e ? e : xfer_async(&x, s);
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pp, int v, struct cudaExtent ex) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = setter(&x, pp.ptr, pp.pitch, v, ex.width, ex.height, ex.depth, pp.pitch * pp.ysize);
  return e ? e : xfer_checked(&x);
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pp, int v, struct cudaExtent ex, cudaStream_t s) {
  RT_API();
  Xfer x = {0};
  cudaError_t e = setter(&x, pp.ptr, pp.pitch, v, ex.width, ex.height, ex.depth, pp.pitch * pp.ysize);
  return e ? e : xfer_async(&x, s);
}

/* Managed memory is host memory: prefetching and advice have nothing to do. */
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int dev, cudaStream_t s) {
  RT_API();
  (void)n;
  if (!rt_dev_at(dev) && dev != cudaCpuDeviceId) return rt_err(cudaErrorInvalidDevice);
  if (!p) return rt_err(cudaErrorInvalidValue);
  return rt_err(rt_stream_check(s));
}

cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise a, int dev) {
  RT_API();
  (void)n;
  if (!p || a < cudaMemAdviseSetReadMostly || a > cudaMemAdviseUnsetAccessedBy) return rt_err(cudaErrorInvalidValue);
  if (!rt_dev_at(dev) && dev != cudaCpuDeviceId) return rt_err(cudaErrorInvalidDevice);
  return cudaSuccess;
}

/* CUDA 12.2's forms with a location (cuda_runtime.h gives C++ the
 * overloads CUDA 13 names cudaMemPrefetchAsync and cudaMemAdvise) */
static bool loc_ok(struct cudaMemLocation l) {
  return (l.type == cudaMemLocationTypeDevice && rt_dev_at(l.id)) || l.type == cudaMemLocationTypeHost ||
         l.type == cudaMemLocationTypeHostNuma || l.type == cudaMemLocationTypeHostNumaCurrent;
}

cudaError_t cudaMemPrefetchAsync_v2(const void *p, size_t n, struct cudaMemLocation loc, unsigned int flags,
                                    cudaStream_t s) {
  RT_API();
  (void)n;
  if (!p || flags) return rt_err(cudaErrorInvalidValue);
  if (!loc_ok(loc)) return rt_err(loc.type == cudaMemLocationTypeDevice ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
  return rt_err(rt_stream_check(s));
}

cudaError_t cudaMemAdvise_v2(const void *p, size_t n, enum cudaMemoryAdvise a, struct cudaMemLocation loc) {
  RT_API();
  (void)n;
  if (!p || a < cudaMemAdviseSetReadMostly || a > cudaMemAdviseUnsetAccessedBy) return rt_err(cudaErrorInvalidValue);
  if (!loc_ok(loc)) return rt_err(loc.type == cudaMemLocationTypeDevice ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
  return cudaSuccess;
}

/* Which stream may use managed memory: every stream may, on a CPU. */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t n, unsigned int flags) {
  RT_API();
  (void)n;
  Region r;
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!p || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle) ||
      !lookup(p, &r) || r.kind != R_MANAGED)
    return rt_err(cudaErrorInvalidValue);
  return cudaSuccess;
}

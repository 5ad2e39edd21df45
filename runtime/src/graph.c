/* graph.c: CUDA graphs and stream capture.
 *
 * A graph is a list of nodes, each with the nodes it depends on.
 * Instantiating copies it deeply (child graphs and conditional bodies too)
 * and sorts the copy so that every node comes after its dependencies;
 * launching queues one operation to the stream, which runs the nodes in
 * that order on the stream's thread. A GPU may also overlap independent
 * nodes, which no program can rely on; one order that keeps every edge is
 * always one a GPU could have chosen.
 *
 * Stream capture: while a stream captures, the calls that would queue work
 * to it (launches, copies, sets, host functions, allocations and frees)
 * add nodes instead, each depending on the stream's capture dependencies
 * (the last node it added, or the set an event it waited for stood for),
 * and then becoming them. An event recorded in a capturing stream stands
 * for that stream's dependencies: another stream that waits for it joins
 * the capture (a fork), and a stream of the capture that waits for an event
 * of another adds that one's dependencies to its own (a join). Ending the
 * capture on the stream that began it ends it for every stream.
 *
 * Graph allocations (memory alloc nodes, cudaMallocAsync while capturing)
 * have fixed addresses: each alloc node owns a block, held by its graphs
 * and executables, that is live from its alloc node to its free (a free
 * node, cudaFree or cudaFreeAsync); cudaDeviceGraphMemTrim gives the pages
 * of blocks that are not live back to the system. */
#include "rt.h"
#include <sys/mman.h>

typedef struct NVec { cudaGraphNode_t *v; size_t n, cap; } NVec;

static bool nv_push(NVec *a, cudaGraphNode_t x) {
  if (a->n == a->cap) {
    size_t c = a->cap ? 2 * a->cap : 4;
    cudaGraphNode_t *v = realloc(a->v, c * sizeof *v);
    if (!v) return false;
    a->v = v;
    a->cap = c;
  }
  a->v[a->n++] = x;
  return true;
}

static bool nv_has(const NVec *a, cudaGraphNode_t x) {
  for (size_t i = 0; i < a->n; i++)
    if (a->v[i] == x) return true;
  return false;
}

/* a conditional handle: the value its node tests, set by device code */
typedef struct Cond { unsigned val, dflt, flags; int refs; } Cond;

/* a graph allocation's block */
typedef struct GMem { char *p; size_t n; int dev, live, backed, refs; struct GMem *next; } GMem;

/* a user object (cudaUserObjectCreate) */
struct CUuserObject_st { void *ptr; cudaHostFn_t destroy; int refs; };
typedef struct URef { cudaUserObject_t o; unsigned n; } URef;

struct CUgraph_st {
  NVec nodes;
  Cond **conds;                /* handles made for this graph (one reference each) */
  size_t nconds;
  URef *uobjs;                 /* user objects it holds */
  size_t nuobjs;
};

struct CUgraphNode_st {
  cudaGraph_t g;
  enum cudaGraphNodeType type;
  NVec deps;
  cudaGraphNode_t orig;        /* in a copy: the node it copies */
  size_t idx;                  /* (while copying: its place in its graph) */
  int off;                     /* disabled in its executable */
  Job *job;                    /* kernel */
  void **argv;                 /* kernel: GetParams' pointers into job */
  rt_xfer x;                   /* memcpy, memset */
  struct cudaMemcpy3DParms cp; /* memcpy, as given */
  struct cudaMemsetParams ms;  /* memset, as given */
  struct cudaHostNodeParams host;
  cudaGraph_t child;           /* child graph (owned) */
  cudaEvent_t ev;              /* event record, event wait */
  struct cudaMemAllocNodeParams alloc;
  GMem *mem;                   /* alloc */
  void *dptr;                  /* free */
  Cond *cond;                  /* conditional: its handle, type and bodies (owned) */
  enum cudaGraphConditionalNodeType ctype;
  unsigned csize;
  cudaGraph_t *body;
};

struct CUgraphExec_st {
  cudaGraph_t g;               /* the sorted deep copy that runs */
  unsigned long long flags;
  Cond **conds;                /* handles to reset at each launch (cudaGraphCondAssignDefault) */
  size_t nconds;
  int refs;                    /* (mu_all) the handle and each queued launch */
  pthread_mutex_t mu;          /* one launch at a time runs it, as on a GPU */
  struct CUgraphExec_st *next; /* every live executable */
};

static pthread_mutex_t mu_all = PTHREAD_MUTEX_INITIALIZER;
static cudaGraphExec_t execs;
static GMem *gmems;
static size_t gm_res[RT_MAXDEV], gm_res_high[RT_MAXDEV];   /* per device: bytes backed by pages (live since the last trim) */

/* ---- graph allocations ---- */

static GMem *gm_new(size_t n, int dev) {
  GMem *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  size_t len = n ? n : 1;
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED || !rt_region_add(p, len, dev)) {
    if (p != MAP_FAILED) munmap(p, len);
    free(m);
    return NULL;
  }
  m->p = p;
  m->n = len;
  m->dev = dev;
  m->refs = 1;
  pthread_mutex_lock(&mu_all);
  m->next = gmems;
  gmems = m;
  pthread_mutex_unlock(&mu_all);
  return m;
}

static void gm_hold(GMem *m) {
  pthread_mutex_lock(&mu_all);
  m->refs++;
  pthread_mutex_unlock(&mu_all);
}

/* Drops a reference; the block itself goes when no graph holds it and it
 * is not live (an allocation not yet freed stays valid). (mu_all held) */
static void gm_unref_locked(GMem *m) {
  if (--m->refs > 0 || m->live) return;
  for (GMem **q = &gmems; *q; q = &(*q)->next)
    if (*q == m) {
      *q = m->next;
      break;
    }
  if (m->backed) gm_res[m->dev] -= m->n;
  rt_region_drop(m->p);
  munmap(m->p, m->n);
  free(m);
}

static void gm_unref(GMem *m) {
  pthread_mutex_lock(&mu_all);
  gm_unref_locked(m);
  pthread_mutex_unlock(&mu_all);
}

static void gm_set_live(GMem *m, int live) {
  pthread_mutex_lock(&mu_all);
  if (live && !m->backed) {
    m->backed = 1;
    gm_res[m->dev] += m->n;
    if (gm_res[m->dev] > gm_res_high[m->dev]) gm_res_high[m->dev] = gm_res[m->dev];
  }
  m->live = live;
  if (!live && m->refs == 0) {
    m->refs = 1;   /* no graph holds it any more: it goes now */
    gm_unref_locked(m);
  }
  pthread_mutex_unlock(&mu_all);
}

static GMem *gm_find(const void *p) {
  pthread_mutex_lock(&mu_all);
  GMem *m = gmems;
  while (m && m->p != p) m = m->next;
  pthread_mutex_unlock(&mu_all);
  return m;
}

bool rt_graph_mem_free(void *p) {
  GMem *m = gm_find(p);
  if (!m) return false;
  gm_set_live(m, 0);
  return true;
}

/* Graph memory is per device, as each alloc node names its device. */
cudaError_t cudaDeviceGraphMemTrim(int dev) {
  RT_API();
  if (!rt_dev_at(dev)) return rt_err(cudaErrorInvalidDevice);
  rt_sync_all();
  pthread_mutex_lock(&mu_all);
  for (GMem *m = gmems; m; m = m->next)
    if (m->dev == dev && !m->live && m->backed) {
      madvise(m->p, m->n, MADV_DONTNEED);
      m->backed = 0;
      gm_res[dev] -= m->n;
    }
  pthread_mutex_unlock(&mu_all);
  return cudaSuccess;
}

/* Memory "associated with graphs" (used) and "allocated for them"
 * (reserved) are one amount here: the pages of graph allocations that were
 * live since the last trim. */
cudaError_t cudaDeviceGetGraphMemAttribute(int dev, enum cudaGraphMemAttributeType a, void *v) {
  RT_API();
  if (!rt_dev_at(dev)) return rt_err(cudaErrorInvalidDevice);
  if (!v || (unsigned)a > cudaGraphMemAttrReservedMemHigh) return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&mu_all);
  size_t r = a == cudaGraphMemAttrUsedMemCurrent || a == cudaGraphMemAttrReservedMemCurrent ? gm_res[dev]
                                                                                            : gm_res_high[dev];
  pthread_mutex_unlock(&mu_all);
  *(unsigned long long *)v = r;
  return cudaSuccess;
}

/* only the high-water marks may be reset (to 0, which leaves the current
 * amount), as in CUDA */
cudaError_t cudaDeviceSetGraphMemAttribute(int dev, enum cudaGraphMemAttributeType a, void *v) {
  RT_API();
  if (!rt_dev_at(dev)) return rt_err(cudaErrorInvalidDevice);
  if (!v || *(unsigned long long *)v != 0 ||
      (a != cudaGraphMemAttrUsedMemHigh && a != cudaGraphMemAttrReservedMemHigh))
    return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&mu_all);
  gm_res_high[dev] = gm_res[dev];
  pthread_mutex_unlock(&mu_all);
  return cudaSuccess;
}

/* ---- user objects ---- */

static void uo_release(cudaUserObject_t o, unsigned n) {
  pthread_mutex_lock(&mu_all);
  o->refs -= (int)n;
  int last = o->refs <= 0;
  pthread_mutex_unlock(&mu_all);
  if (!last) return;
  if (o->destroy) o->destroy(o->ptr);
  free(o);
}

cudaError_t cudaUserObjectCreate(cudaUserObject_t *out, void *ptr, cudaHostFn_t destroy, unsigned int n,
                                 unsigned int flags) {
  RT_API();
  if (!out || !destroy || n == 0 || flags != cudaUserObjectNoDestructorSync) return rt_err(cudaErrorInvalidValue);
  cudaUserObject_t o = calloc(1, sizeof *o);
  if (!o) return rt_err(cudaErrorMemoryAllocation);
  *o = (struct CUuserObject_st){ptr, destroy, (int)n};
  *out = o;
  return cudaSuccess;
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t o, unsigned int n) {
  RT_API();
  if (!o || n == 0) return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&mu_all);
  o->refs += (int)n;
  pthread_mutex_unlock(&mu_all);
  return cudaSuccess;
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t o, unsigned int n) {
  RT_API();
  if (!o || n == 0) return rt_err(cudaErrorInvalidValue);
  uo_release(o, n);
  return cudaSuccess;
}

static bool g_retain(cudaGraph_t g, cudaUserObject_t o, unsigned n) {
  URef *v = realloc(g->uobjs, (g->nuobjs + 1) * sizeof *v);
  if (!v) return false;
  g->uobjs = v;
  v[g->nuobjs++] = (URef){o, n};
  return true;
}

cudaError_t cudaGraphRetainUserObject(cudaGraph_t g, cudaUserObject_t o, unsigned int n, unsigned int flags) {
  RT_API();
  if (!g || !o || n == 0 || (flags & ~(unsigned)cudaGraphUserObjectMove)) return rt_err(cudaErrorInvalidValue);
  if (!(flags & cudaGraphUserObjectMove)) cudaUserObjectRetain(o, n);
  return g_retain(g, o, n) ? cudaSuccess : rt_err(cudaErrorMemoryAllocation);
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t g, cudaUserObject_t o, unsigned int n) {
  RT_API();
  if (!g || !o || n == 0) return rt_err(cudaErrorInvalidValue);
  for (size_t i = 0; i < g->nuobjs; i++)
    if (g->uobjs[i].o == o && g->uobjs[i].n >= n) {
      g->uobjs[i].n -= n;
      uo_release(o, n);
      return cudaSuccess;
    }
  return rt_err(cudaErrorInvalidValue);
}

/* ---- graphs and nodes ---- */

static void graph_free(cudaGraph_t g);

static void cond_unref(Cond *c) {
  pthread_mutex_lock(&mu_all);
  int last = --c->refs == 0;
  pthread_mutex_unlock(&mu_all);
  if (last) free(c);
}

static void cond_hold(Cond *c) {
  pthread_mutex_lock(&mu_all);
  c->refs++;
  pthread_mutex_unlock(&mu_all);
}

static void node_free(cudaGraphNode_t n) {
  rt_job_free(n->job);
  free(n->argv);
  graph_free(n->child);
  if (n->mem) gm_unref(n->mem);
  if (n->cond) cond_unref(n->cond);
  for (unsigned i = 0; n->body && i < n->csize; i++) graph_free(n->body[i]);
  free(n->body);
  free(n->deps.v);
  free(n);
}

static void graph_free(cudaGraph_t g) {
  if (!g) return;
  for (size_t i = 0; i < g->nodes.n; i++) node_free(g->nodes.v[i]);
  free(g->nodes.v);
  for (size_t i = 0; i < g->nconds; i++) cond_unref(g->conds[i]);
  free(g->conds);
  for (size_t i = 0; i < g->nuobjs; i++)
    if (g->uobjs[i].n) uo_release(g->uobjs[i].o, g->uobjs[i].n);
  free(g->uobjs);
  free(g);
}

cudaError_t cudaGraphCreate(cudaGraph_t *out, unsigned int flags) {
  RT_API();
  if (!out || flags) return rt_err(cudaErrorInvalidValue);
  *out = calloc(1, sizeof **out);
  return *out ? cudaSuccess : rt_err(cudaErrorMemoryAllocation);
}

cudaError_t cudaGraphDestroy(cudaGraph_t g) {
  RT_API();
  if (!g) return rt_err(cudaErrorInvalidValue);
  graph_free(g);
  return cudaSuccess;
}

static cudaGraphNode_t mk(enum cudaGraphNodeType t) {
  cudaGraphNode_t n = calloc(1, sizeof *n);
  if (n) n->type = t;
  return n;
}

/* Adds n to g after deps (each a node of g), or frees it. */
static cudaError_t add(cudaGraphNode_t *out, cudaGraph_t g, cudaGraphNode_t n, const cudaGraphNode_t *deps,
                       size_t nd) {
  if (!n) return rt_err(cudaErrorMemoryAllocation);
  cudaError_t e = cudaSuccess;
  if (!g || !out || (nd && !deps)) e = cudaErrorInvalidValue;
  for (size_t i = 0; !e && i < nd; i++)
    if (!deps[i] || deps[i]->g != g || nv_has(&n->deps, deps[i])) e = cudaErrorInvalidValue;
    else if (!nv_push(&n->deps, deps[i])) e = cudaErrorMemoryAllocation;
  if (!e && !nv_push(&g->nodes, n)) e = cudaErrorMemoryAllocation;
  if (e) {
    node_free(n);
    return rt_err(e);
  }
  n->g = g;
  *out = n;
  return cudaSuccess;
}

static cudaError_t set_kernel(cudaGraphNode_t n, const struct cudaKernelNodeParams *p) {
  if (!p || p->extra) return cudaErrorInvalidValue;   /* (the driver API's packed arguments: not offered) */
  Job *j;
  cudaError_t e = rt_job_new(p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, &j);
  if (e) return e;
  rt_job_free(n->job);
  n->job = j;
  free(n->argv);
  n->argv = NULL;
  return cudaSuccess;
}

static void get_kernel(cudaGraphNode_t n, struct cudaKernelNodeParams *p) {
  size_t smem;
  free(n->argv);
  memset(p, 0, sizeof *p);
  rt_job_params(n->job, &p->func, &p->gridDim, &p->blockDim, &smem, &n->argv);
  p->sharedMemBytes = (unsigned)smem;
  p->kernelParams = n->argv;
}

static cudaError_t set_copy(cudaGraphNode_t n, const struct cudaMemcpy3DParms *p) {
  rt_xfer x;
  cudaError_t e = rt_xfer_3d(&x, p);
  if (e) return e;
  n->x = x;
  n->cp = *p;
  return cudaSuccess;
}

static cudaError_t set_copy1d(cudaGraphNode_t n, void *dst, const void *src, size_t count, enum cudaMemcpyKind k) {
  rt_xfer x;
  cudaError_t e = rt_xfer_1d(&x, dst, src, count, k);
  if (e) return e;
  n->x = x;
  memset(&n->cp, 0, sizeof n->cp);
  n->cp.srcPtr = make_cudaPitchedPtr((void *)src, count, count, 1);
  n->cp.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
  n->cp.extent = make_cudaExtent(count, 1, 1);
  n->cp.kind = k;
  return cudaSuccess;
}

static cudaError_t set_memset(cudaGraphNode_t n, const struct cudaMemsetParams *p) {
  rt_xfer x;
  cudaError_t e = rt_xfer_set(&x, p);
  if (e) return e;
  n->x = x;
  n->ms = *p;
  return cudaSuccess;
}

/* a node of type t in g, or cudaErrorInvalidValue */
static cudaError_t typed(cudaGraphNode_t n, enum cudaGraphNodeType t) {
  return n && n->type == t ? cudaSuccess : rt_err(cudaErrorInvalidValue);
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaKernelNodeParams *p) {
  RT_API();
  cudaGraphNode_t n = mk(cudaGraphNodeTypeKernel);
  cudaError_t e = n ? set_kernel(n, p) : cudaErrorMemoryAllocation;
  if (e) {
    if (n) node_free(n);
    return rt_err(e);
  }
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t n, struct cudaKernelNodeParams *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeKernel) || !p) return rt_err(cudaErrorInvalidValue);
  get_kernel(n, p);
  return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t n, const struct cudaKernelNodeParams *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeKernel)) return cudaErrorInvalidValue;
  return rt_err(set_kernel(n, p));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaMemcpy3DParms *p) {
  RT_API();
  cudaGraphNode_t n = mk(cudaGraphNodeTypeMemcpy);
  cudaError_t e = n ? set_copy(n, p) : cudaErrorMemoryAllocation;
  if (e) {
    if (n) node_free(n);
    return rt_err(e);
  }
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                     void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  RT_API();
  cudaGraphNode_t n = mk(cudaGraphNodeTypeMemcpy);
  cudaError_t e = n ? set_copy1d(n, dst, src, count, kind) : cudaErrorMemoryAllocation;
  if (e) {
    if (n) node_free(n);
    return rt_err(e);
  }
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t n, struct cudaMemcpy3DParms *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeMemcpy) || !p) return rt_err(cudaErrorInvalidValue);
  *p = n->cp;
  return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t n, const struct cudaMemcpy3DParms *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeMemcpy)) return cudaErrorInvalidValue;
  return rt_err(set_copy(n, p));
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t n, void *dst, const void *src, size_t count,
                                           enum cudaMemcpyKind kind) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeMemcpy)) return cudaErrorInvalidValue;
  return rt_err(set_copy1d(n, dst, src, count, kind));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaMemsetParams *p) {
  RT_API();
  cudaGraphNode_t n = mk(cudaGraphNodeTypeMemset);
  cudaError_t e = n ? set_memset(n, p) : cudaErrorMemoryAllocation;
  if (e) {
    if (n) node_free(n);
    return rt_err(e);
  }
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t n, struct cudaMemsetParams *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeMemset) || !p) return rt_err(cudaErrorInvalidValue);
  *p = n->ms;
  return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t n, const struct cudaMemsetParams *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeMemset)) return cudaErrorInvalidValue;
  return rt_err(set_memset(n, p));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                 const struct cudaHostNodeParams *p) {
  RT_API();
  if (!p || !p->fn) return rt_err(cudaErrorInvalidValue);
  cudaGraphNode_t n = mk(cudaGraphNodeTypeHost);
  if (n) n->host = *p;
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t n, struct cudaHostNodeParams *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeHost) || !p) return rt_err(cudaErrorInvalidValue);
  *p = n->host;
  return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t n, const struct cudaHostNodeParams *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeHost) || !p || !p->fn) return rt_err(cudaErrorInvalidValue);
  n->host = *p;
  return cudaSuccess;
}

static cudaGraph_t copy_graph(cudaGraph_t src);

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                       cudaGraph_t child) {
  RT_API();
  if (!child) return rt_err(cudaErrorInvalidValue);
  cudaGraphNode_t n = mk(cudaGraphNodeTypeGraph);
  if (n && !(n->child = copy_graph(child))) {   /* the node embeds a clone, as in CUDA */
    node_free(n);
    n = NULL;
  }
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t n, cudaGraph_t *out) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeGraph) || !out) return rt_err(cudaErrorInvalidValue);
  *out = n->child;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd) {
  RT_API();
  return add(out, g, mk(cudaGraphNodeTypeEmpty), deps, nd);
}

static cudaError_t add_event(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                             cudaEvent_t e, enum cudaGraphNodeType t) {
  if (rt_event_check(e)) return rt_err(cudaErrorInvalidResourceHandle);
  cudaGraphNode_t n = mk(t);
  if (n) n->ev = e;
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                        cudaEvent_t e) {
  RT_API();
  return add_event(out, g, deps, nd, e, cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                      cudaEvent_t e) {
  RT_API();
  return add_event(out, g, deps, nd, e, cudaGraphNodeTypeWaitEvent);
}

static cudaError_t ev_get(cudaGraphNode_t n, cudaEvent_t *out, enum cudaGraphNodeType t) {
  if (typed(n, t) || !out) return rt_err(cudaErrorInvalidValue);
  *out = n->ev;
  return cudaSuccess;
}

static cudaError_t ev_set(cudaGraphNode_t n, cudaEvent_t e, enum cudaGraphNodeType t) {
  if (typed(n, t)) return cudaErrorInvalidValue;
  if (rt_event_check(e)) return rt_err(cudaErrorInvalidResourceHandle);
  n->ev = e;
  return cudaSuccess;
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t n, cudaEvent_t *out) {
  RT_API();
  return ev_get(n, out, cudaGraphNodeTypeEventRecord);
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t n, cudaEvent_t e) {
  RT_API();
  return ev_set(n, e, cudaGraphNodeTypeEventRecord);
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t n, cudaEvent_t *out) {
  RT_API();
  return ev_get(n, out, cudaGraphNodeTypeWaitEvent);
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t n, cudaEvent_t e) {
  RT_API();
  return ev_set(n, e, cudaGraphNodeTypeWaitEvent);
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                     struct cudaMemAllocNodeParams *p) {
  RT_API();
  if (!p || !p->bytesize || p->poolProps.allocType != cudaMemAllocationTypePinned ||
      p->poolProps.location.type != cudaMemLocationTypeDevice)
    return rt_err(cudaErrorInvalidValue);
  if (!rt_dev_at(p->poolProps.location.id)) return rt_err(cudaErrorInvalidDevice);
  cudaGraphNode_t n = mk(cudaGraphNodeTypeMemAlloc);
  if (n && !(n->mem = gm_new(p->bytesize, p->poolProps.location.id))) {
    node_free(n);
    n = NULL;
  }
  if (n) {
    p->dptr = n->mem->p;
    n->alloc = *p;
    n->alloc.accessDescs = NULL;
    n->alloc.accessDescCount = 0;
  }
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t n, struct cudaMemAllocNodeParams *p) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeMemAlloc) || !p) return rt_err(cudaErrorInvalidValue);
  *p = n->alloc;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                                    void *dptr) {
  RT_API();
  if (!gm_find(dptr)) return rt_err(cudaErrorInvalidValue);   /* only a graph allocation */
  cudaGraphNode_t n = mk(cudaGraphNodeTypeMemFree);
  if (n) n->dptr = dptr;
  return add(out, g, n, deps, nd);
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t n, void *out) {
  RT_API();
  if (typed(n, cudaGraphNodeTypeMemFree) || !out) return rt_err(cudaErrorInvalidValue);
  *(void **)out = n->dptr;
  return cudaSuccess;
}

/* ---- conditional nodes ---- */

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *out, cudaGraph_t g, unsigned int dflt,
                                             unsigned int flags) {
  RT_API();
  if (!out || !g || (flags & ~(unsigned)cudaGraphCondAssignDefault)) return rt_err(cudaErrorInvalidValue);
  Cond *c = calloc(1, sizeof *c);
  Cond **v = c ? realloc(g->conds, (g->nconds + 1) * sizeof *v) : NULL;
  if (!v) {
    free(c);
    return rt_err(cudaErrorMemoryAllocation);
  }
  *c = (Cond){dflt, dflt, flags, 1};
  g->conds = v;
  v[g->nconds++] = c;
  /* device code writes the value through the handle (cudaGraphSetConditional) */
  *out = (cudaGraphConditionalHandle)(uintptr_t)c;
  return cudaSuccess;
}

static Cond *cond_of(cudaGraph_t g, cudaGraphConditionalHandle h) {
  for (size_t i = 0; i < g->nconds; i++)
    if ((cudaGraphConditionalHandle)(uintptr_t)g->conds[i] == h) return g->conds[i];
  return NULL;
}

static cudaError_t add_cond(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                            struct cudaConditionalNodeParams *p) {
  if (!g || !p) return rt_err(cudaErrorInvalidValue);
  /* the handle is the graph's, or (a node in a body) an enclosing graph's */
  Cond *c = (Cond *)(uintptr_t)p->handle;
  if (!c || (p->type == cudaGraphCondTypeIf && p->size != 1 && p->size != 2) ||
      (p->type == cudaGraphCondTypeWhile && p->size != 1) || (p->type == cudaGraphCondTypeSwitch && p->size < 1) ||
      (unsigned)p->type > cudaGraphCondTypeSwitch)
    return rt_err(cudaErrorInvalidValue);
  if (!cond_of(g, p->handle)) {   /* a handle of another graph: only if it is live somewhere */
    bool known = false;
    pthread_mutex_lock(&mu_all);
    known = c->refs > 0;
    pthread_mutex_unlock(&mu_all);
    if (!known) return rt_err(cudaErrorInvalidValue);
  }
  cudaGraphNode_t n = mk(cudaGraphNodeTypeConditional);
  if (!n) return rt_err(cudaErrorMemoryAllocation);
  n->ctype = p->type;
  n->csize = p->size;
  n->body = calloc(p->size, sizeof *n->body);
  for (unsigned i = 0; n->body && i < p->size; i++)
    if (cudaGraphCreate(&n->body[i], 0)) {
      n->csize = i;
      node_free(n);
      return rt_err(cudaErrorMemoryAllocation);
    }
  if (!n->body) {
    node_free(n);
    return rt_err(cudaErrorMemoryAllocation);
  }
  cond_hold(c);
  n->cond = c;
  p->phGraph_out = n->body;
  return add(out, g, n, deps, nd);
}

/* ---- the generic node API (CUDA 12.2) ---- */

cudaError_t cudaGraphAddNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t nd,
                             struct cudaGraphNodeParams *p) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  switch (p->type) {
  case cudaGraphNodeTypeKernel: return cudaGraphAddKernelNode(out, g, deps, nd, &p->kernel);
  case cudaGraphNodeTypeMemcpy: return cudaGraphAddMemcpyNode(out, g, deps, nd, &p->memcpy.copyParams);
  case cudaGraphNodeTypeMemset: return cudaGraphAddMemsetNode(out, g, deps, nd, &p->memset);
  case cudaGraphNodeTypeHost: return cudaGraphAddHostNode(out, g, deps, nd, &p->host);
  case cudaGraphNodeTypeGraph: return cudaGraphAddChildGraphNode(out, g, deps, nd, p->graph.graph);
  case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(out, g, deps, nd);
  case cudaGraphNodeTypeWaitEvent: return cudaGraphAddEventWaitNode(out, g, deps, nd, p->eventWait.event);
  case cudaGraphNodeTypeEventRecord: return cudaGraphAddEventRecordNode(out, g, deps, nd, p->eventRecord.event);
  case cudaGraphNodeTypeMemAlloc: return cudaGraphAddMemAllocNode(out, g, deps, nd, &p->alloc);
  case cudaGraphNodeTypeMemFree: return cudaGraphAddMemFreeNode(out, g, deps, nd, p->free.dptr);
  case cudaGraphNodeTypeConditional: return add_cond(out, g, deps, nd, &p->conditional);
  default: return rt_err(cudaErrorInvalidValue);   /* external semaphores: no such thing here */
  }
}

/* every edge is an ordinary full dependency here: other edge data is refused */
static bool plain_edges(const cudaGraphEdgeData *d, size_t n) {
  for (size_t i = 0; d && i < n; i++)
    if (d[i].from_port || d[i].to_port || d[i].type) return false;
  return true;
}

cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps,
                                const cudaGraphEdgeData *ed, size_t nd, struct cudaGraphNodeParams *p) {
  RT_API();
  if (!plain_edges(ed, nd)) return rt_err(cudaErrorNotSupported);
  return cudaGraphAddNode(out, g, deps, nd, p);
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t n, struct cudaGraphNodeParams *p) {
  RT_API();
  if (!n || !p || p->type != n->type) return rt_err(cudaErrorInvalidValue);
  switch (p->type) {
  case cudaGraphNodeTypeKernel: return cudaGraphKernelNodeSetParams(n, &p->kernel);
  case cudaGraphNodeTypeMemcpy: return cudaGraphMemcpyNodeSetParams(n, &p->memcpy.copyParams);
  case cudaGraphNodeTypeMemset: return cudaGraphMemsetNodeSetParams(n, &p->memset);
  case cudaGraphNodeTypeHost: return cudaGraphHostNodeSetParams(n, &p->host);
  case cudaGraphNodeTypeWaitEvent: return cudaGraphEventWaitNodeSetEvent(n, p->eventWait.event);
  case cudaGraphNodeTypeEventRecord: return cudaGraphEventRecordNodeSetEvent(n, p->eventRecord.event);
  default: return rt_err(cudaErrorInvalidValue);
  }
}

/* ---- structure ---- */

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t n, enum cudaGraphNodeType *t) {
  RT_API();
  if (!n || !t) return rt_err(cudaErrorInvalidValue);
  *t = n->type;
  return cudaSuccess;
}

/* nodes == NULL: how many; else up to *count of them, and how many written */
static cudaError_t list(const NVec *v, cudaGraphNode_t *nodes, size_t *count, bool (*keep)(cudaGraphNode_t)) {
  if (!count) return rt_err(cudaErrorInvalidValue);
  size_t k = 0;
  for (size_t i = 0; i < v->n; i++) {
    if (keep && !keep(v->v[i])) continue;
    if (nodes && k < *count) nodes[k] = v->v[i];
    k++;
  }
  if (nodes && k > *count) k = *count;
  *count = k;
  return cudaSuccess;
}

static bool is_root(cudaGraphNode_t n) { return n->deps.n == 0; }

cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *count) {
  RT_API();
  if (!g) return rt_err(cudaErrorInvalidValue);
  return list(&g->nodes, nodes, count, NULL);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *count) {
  RT_API();
  if (!g) return rt_err(cudaErrorInvalidValue);
  return list(&g->nodes, nodes, count, is_root);
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t n, cudaGraphNode_t *deps, size_t *count) {
  RT_API();
  if (!n) return rt_err(cudaErrorInvalidValue);
  return list(&n->deps, deps, count, NULL);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t n, cudaGraphNode_t *out, size_t *count) {
  RT_API();
  if (!n || !count) return rt_err(cudaErrorInvalidValue);
  NVec v = {0};
  for (size_t i = 0; i < n->g->nodes.n; i++)
    if (nv_has(&n->g->nodes.v[i]->deps, n) && !nv_push(&v, n->g->nodes.v[i])) {
      free(v.v);
      return rt_err(cudaErrorMemoryAllocation);
    }
  cudaError_t e = list(&v, out, count, NULL);
  free(v.v);
  return e;
}

cudaError_t cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t *from, cudaGraphNode_t *to, size_t *count) {
  RT_API();
  if (!g || !count || (!from) != (!to)) return rt_err(cudaErrorInvalidValue);
  size_t k = 0;
  for (size_t i = 0; i < g->nodes.n; i++)
    for (size_t j = 0; j < g->nodes.v[i]->deps.n; j++, k++)
      if (from && k < *count) {
        from[k] = g->nodes.v[i]->deps.v[j];
        to[k] = g->nodes.v[i];
      }
  *count = from && k > *count ? *count : k;
  return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t n) {
  RT_API();
  if (!g || (n && (!from || !to))) return rt_err(cudaErrorInvalidValue);
  for (size_t i = 0; i < n; i++) {
    if (!from[i] || !to[i] || from[i]->g != g || to[i]->g != g || from[i] == to[i] || nv_has(&to[i]->deps, from[i]))
      return rt_err(cudaErrorInvalidValue);
    if (!nv_push(&to[i]->deps, from[i])) return rt_err(cudaErrorMemoryAllocation);
  }
  return cudaSuccess;
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        size_t n) {
  RT_API();
  if (!g || (n && (!from || !to))) return rt_err(cudaErrorInvalidValue);
  for (size_t i = 0; i < n; i++) {
    NVec *d = to[i] && to[i]->g == g ? &to[i]->deps : NULL;
    size_t j = 0;
    while (d && j < d->n && d->v[j] != from[i]) j++;
    if (!d || j == d->n) return rt_err(cudaErrorInvalidValue);
    memmove(d->v + j, d->v + j + 1, (d->n - j - 1) * sizeof *d->v);
    d->n--;
  }
  return cudaSuccess;
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t n) {
  RT_API();
  if (!n) return rt_err(cudaErrorInvalidValue);
  cudaGraph_t g = n->g;
  for (size_t i = 0; i < g->nodes.n; i++) {   /* its edges go with it */
    NVec *d = &g->nodes.v[i]->deps;
    for (size_t j = 0; j < d->n; j++)
      if (d->v[j] == n) {
        memmove(d->v + j, d->v + j + 1, (d->n - j - 1) * sizeof *d->v);
        d->n--;
        break;
      }
  }
  for (size_t i = 0; i < g->nodes.n; i++)
    if (g->nodes.v[i] == n) {
      memmove(g->nodes.v + i, g->nodes.v + i + 1, (g->nodes.n - i - 1) * sizeof *g->nodes.v);
      g->nodes.n--;
      break;
    }
  node_free(n);
  return cudaSuccess;
}

/* ---- copies: clones and executables ---- */

static cudaGraph_t copy_graph(cudaGraph_t src) {
  cudaGraph_t g = calloc(1, sizeof *g);
  if (!g) return NULL;
  for (size_t i = 0; i < src->nodes.n; i++) src->nodes.v[i]->idx = i;
  bool ok = true;
  for (size_t i = 0; ok && i < src->nodes.n; i++) {
    cudaGraphNode_t s = src->nodes.v[i], n = calloc(1, sizeof *n);
    if (!n || !nv_push(&g->nodes, n)) {
      free(n);
      ok = false;
      break;
    }
    *n = *s;
    n->g = g;
    n->orig = s;
    n->deps = (NVec){0};
    n->argv = NULL;
    n->job = NULL;
    n->child = NULL;
    n->body = NULL;
    n->mem = NULL;
    n->cond = NULL;
    n->csize = 0;
    if (ok && s->job) ok = (n->job = rt_job_copy(s->job)) != NULL;
    if (ok && s->child) ok = (n->child = copy_graph(s->child)) != NULL;
    if (ok && s->mem) gm_hold(n->mem = s->mem);
    if (ok && s->cond) cond_hold(n->cond = s->cond);
    if (ok && s->body) {
      n->body = calloc(s->csize, sizeof *n->body);
      ok = n->body != NULL;
      for (unsigned k = 0; ok && k < s->csize; k++, n->csize = k) ok = (n->body[k] = copy_graph(s->body[k])) != NULL;
    }
  }
  for (size_t i = 0; ok && i < src->nodes.n; i++) {   /* edges, once every node has its copy */
    cudaGraphNode_t s = src->nodes.v[i];
    for (size_t j = 0; ok && j < s->deps.n; j++) ok = nv_push(&g->nodes.v[i]->deps, g->nodes.v[s->deps.v[j]->idx]);
  }
  for (size_t i = 0; ok && i < src->nuobjs; i++)   /* a copy holds the user objects too */
    if (src->uobjs[i].n) {
      cudaUserObjectRetain(src->uobjs[i].o, src->uobjs[i].n);
      ok = g_retain(g, src->uobjs[i].o, src->uobjs[i].n);
    }
  if (!ok) {
    graph_free(g);
    return NULL;
  }
  return g;
}

cudaError_t cudaGraphClone(cudaGraph_t *out, cudaGraph_t g) {
  RT_API();
  if (!out || !g) return rt_err(cudaErrorInvalidValue);
  for (size_t i = 0; i < g->nodes.n; i++)   /* CUDA's rule: a graph with conditional nodes is not cloned */
    if (g->nodes.v[i]->type == cudaGraphNodeTypeConditional) return rt_err(cudaErrorNotSupported);
  *out = copy_graph(g);
  return *out ? cudaSuccess : rt_err(cudaErrorMemoryAllocation);
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *out, cudaGraphNode_t orig, cudaGraph_t clone) {
  RT_API();
  if (!out || !orig || !clone) return rt_err(cudaErrorInvalidValue);
  for (size_t i = 0; i < clone->nodes.n; i++)
    if (clone->nodes.v[i]->orig == orig) {
      *out = clone->nodes.v[i];
      return cudaSuccess;
    }
  return rt_err(cudaErrorInvalidValue);
}

/* Orders g's nodes so that each follows its dependencies, keeping the
 * order of creation among independent ones (Kahn's algorithm). False on a
 * cycle. Bodies and child graphs are sorted too. */
static bool sort_graph(cudaGraph_t g) {
  size_t n = g->nodes.n, done = 0;
  cudaGraphNode_t *out = malloc((n + 1) * sizeof *out);
  char *placed = calloc(n + 1, 1);
  if (!out || !placed) {
    free(out);
    free(placed);
    return false;
  }
  for (size_t i = 0; i < n; i++) g->nodes.v[i]->idx = i;
  while (done < n) {
    size_t before = done;
    for (size_t i = 0; i < n; i++) {
      cudaGraphNode_t x = g->nodes.v[i];
      if (placed[i]) continue;
      bool ready = true;
      for (size_t j = 0; j < x->deps.n && ready; j++) ready = placed[x->deps.v[j]->idx];
      if (ready) {
        placed[i] = 1;
        out[done++] = x;
      }
    }
    if (done == before) break;   /* a cycle */
  }
  bool ok = done == n;
  if (ok) memcpy(g->nodes.v, out, n * sizeof *out);
  free(out);
  free(placed);
  for (size_t i = 0; ok && i < n; i++) {
    cudaGraphNode_t x = g->nodes.v[i];
    if (x->child) ok = sort_graph(x->child);
    for (unsigned k = 0; ok && k < x->csize; k++) ok = sort_graph(x->body[k]);
  }
  return ok;
}

/* the conditional handles an executable resets at each launch */
static bool collect_conds(cudaGraphExec_t x, cudaGraph_t g) {
  for (size_t i = 0; i < g->nodes.n; i++) {
    cudaGraphNode_t n = g->nodes.v[i];
    if (n->cond && (n->cond->flags & cudaGraphCondAssignDefault)) {
      bool seen = false;
      for (size_t k = 0; k < x->nconds; k++) seen |= x->conds[k] == n->cond;
      if (!seen) {
        Cond **v = realloc(x->conds, (x->nconds + 1) * sizeof *v);
        if (!v) return false;
        x->conds = v;
        v[x->nconds++] = n->cond;
      }
    }
    if (n->child && !collect_conds(x, n->child)) return false;
    for (unsigned k = 0; k < n->csize; k++)
      if (!collect_conds(x, n->body[k])) return false;
  }
  return true;
}

static cudaError_t exec_check(cudaGraphExec_t x) {
  pthread_mutex_lock(&mu_all);
  cudaGraphExec_t q = execs;
  while (q && q != x) q = q->next;
  pthread_mutex_unlock(&mu_all);
  return x && q ? cudaSuccess : cudaErrorInvalidValue;
}

static void exec_release(cudaGraphExec_t x) {
  pthread_mutex_lock(&mu_all);
  int last = --x->refs == 0;
  pthread_mutex_unlock(&mu_all);
  if (!last) return;
  graph_free(x->g);
  free(x->conds);
  pthread_mutex_destroy(&x->mu);
  free(x);
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *out, cudaGraph_t g, unsigned long long flags) {
  RT_API();
  if (!out || !g || (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch |
                                                    cudaGraphInstantiateFlagUpload |
                                                    cudaGraphInstantiateFlagUseNodePriority)))
    return rt_err(cudaErrorInvalidValue);
  cudaGraphExec_t x = calloc(1, sizeof *x);
  if (!x) return rt_err(cudaErrorMemoryAllocation);
  x->g = copy_graph(g);
  if (!x->g || !collect_conds(x, x->g)) {
    graph_free(x->g);
    free(x->conds);
    free(x);
    return rt_err(cudaErrorMemoryAllocation);
  }
  if (!sort_graph(x->g)) {   /* a cycle */
    graph_free(x->g);
    free(x->conds);
    free(x);
    return rt_err(cudaErrorInvalidValue);
  }
  x->flags = flags;
  x->refs = 1;
  pthread_mutex_init(&x->mu, NULL);
  pthread_mutex_lock(&mu_all);
  x->next = execs;
  execs = x;
  pthread_mutex_unlock(&mu_all);
  *out = x;
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *out, cudaGraph_t g, unsigned long long flags) {
  RT_API();
  return cudaGraphInstantiate(out, g, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *out, cudaGraph_t g, cudaGraphInstantiateParams *p) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  cudaError_t e = cudaGraphInstantiate(out, g, p->flags);
  p->errNode_out = NULL;
  p->result_out = e ? cudaGraphInstantiateError : cudaGraphInstantiateSuccess;
  if (!e && (p->flags & cudaGraphInstantiateFlagUpload)) e = rt_err(rt_stream_check(p->uploadStream));
  return e;
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t x, unsigned long long *flags) {
  RT_API();
  if (exec_check(x) || !flags) return rt_err(cudaErrorInvalidValue);
  *flags = x->flags;
  return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x) {
  RT_API();
  pthread_mutex_lock(&mu_all);
  cudaGraphExec_t *q = &execs;
  while (*q && *q != x) q = &(*q)->next;
  if (!x || !*q) {
    pthread_mutex_unlock(&mu_all);
    return rt_err(cudaErrorInvalidValue);
  }
  *q = x->next;
  pthread_mutex_unlock(&mu_all);
  exec_release(x);   /* a queued launch still holds it */
  return cudaSuccess;
}

/* the node of executable graph g that copies the program's node n */
static cudaGraphNode_t exec_node(cudaGraph_t g, cudaGraphNode_t n) {
  for (size_t i = 0; i < g->nodes.n; i++) {
    cudaGraphNode_t c = g->nodes.v[i];
    if (c->orig == n) return c;
  }
  return NULL;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                             const struct cudaKernelNodeParams *p) {
  RT_API();
  if (exec_check(x)) return rt_err(cudaErrorInvalidValue);
  cudaGraphNode_t c = exec_node(x->g, n);
  if (!c || c->type != cudaGraphNodeTypeKernel) return rt_err(cudaErrorInvalidValue);
  Job *j;
  if (!p || p->extra) return rt_err(cudaErrorInvalidValue);
  cudaError_t e = rt_job_new(p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, &j);
  if (e) return rt_err(e);
  if (rt_job_kernel(j) != rt_job_kernel(c->job)) {   /* CUDA's rule: the same function (or context) */
    rt_job_free(j);
    return rt_err(cudaErrorInvalidValue);
  }
  pthread_mutex_lock(&x->mu);   /* takes effect from the next launch: one running keeps its copy */
  rt_job_free(c->job);
  c->job = j;
  pthread_mutex_unlock(&x->mu);
  return cudaSuccess;
}

static cudaError_t exec_set(cudaGraphExec_t x, cudaGraphNode_t n, enum cudaGraphNodeType t, cudaGraphNode_t tmp) {
  if (exec_check(x)) return rt_err(cudaErrorInvalidValue);
  cudaGraphNode_t c = exec_node(x->g, n);
  if (!c || c->type != t) return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&x->mu);
  c->x = tmp->x;
  c->cp = tmp->cp;
  c->ms = tmp->ms;
  c->host = tmp->host;
  c->ev = tmp->ev;
  pthread_mutex_unlock(&x->mu);
  return cudaSuccess;
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                             const struct cudaMemcpy3DParms *p) {
  RT_API();
  struct CUgraphNode_st t = {0};
  cudaError_t e = set_copy(&t, p);
  return e ? rt_err(e) : exec_set(x, n, cudaGraphNodeTypeMemcpy, &t);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x, cudaGraphNode_t n, void *dst, const void *src,
                                               size_t count, enum cudaMemcpyKind kind) {
  RT_API();
  struct CUgraphNode_st t = {0};
  cudaError_t e = set_copy1d(&t, dst, src, count, kind);
  return e ? rt_err(e) : exec_set(x, n, cudaGraphNodeTypeMemcpy, &t);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n, const struct cudaMemsetParams *p) {
  RT_API();
  struct CUgraphNode_st t = {0};
  cudaError_t e = set_memset(&t, p);
  return e ? rt_err(e) : exec_set(x, n, cudaGraphNodeTypeMemset, &t);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n, const struct cudaHostNodeParams *p) {
  RT_API();
  if (!p || !p->fn) return rt_err(cudaErrorInvalidValue);
  struct CUgraphNode_st t = {0};
  t.host = *p;
  return exec_set(x, n, cudaGraphNodeTypeHost, &t);
}

static cudaError_t exec_event(cudaGraphExec_t x, cudaGraphNode_t n, cudaEvent_t e, enum cudaGraphNodeType ty) {
  if (rt_event_check(e)) return rt_err(cudaErrorInvalidResourceHandle);
  struct CUgraphNode_st t = {0};
  t.ev = e;
  return exec_set(x, n, ty, &t);
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t n, cudaEvent_t e) {
  RT_API();
  return exec_event(x, n, e, cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t n, cudaEvent_t e) {
  RT_API();
  return exec_event(x, n, e, cudaGraphNodeTypeWaitEvent);
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n, struct cudaGraphNodeParams *p) {
  RT_API();
  if (!p || !n || p->type != n->type) return rt_err(cudaErrorInvalidValue);
  switch (p->type) {
  case cudaGraphNodeTypeKernel: return cudaGraphExecKernelNodeSetParams(x, n, &p->kernel);
  case cudaGraphNodeTypeMemcpy: return cudaGraphExecMemcpyNodeSetParams(x, n, &p->memcpy.copyParams);
  case cudaGraphNodeTypeMemset: return cudaGraphExecMemsetNodeSetParams(x, n, &p->memset);
  case cudaGraphNodeTypeHost: return cudaGraphExecHostNodeSetParams(x, n, &p->host);
  case cudaGraphNodeTypeWaitEvent: return cudaGraphExecEventWaitNodeSetEvent(x, n, p->eventWait.event);
  case cudaGraphNodeTypeEventRecord: return cudaGraphExecEventRecordNodeSetEvent(x, n, p->eventRecord.event);
  default: return rt_err(cudaErrorInvalidValue);
  }
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t x, cudaGraphNode_t n, unsigned int on) {
  RT_API();
  if (exec_check(x)) return rt_err(cudaErrorInvalidValue);
  cudaGraphNode_t c = exec_node(x->g, n);
  if (!c || (c->type != cudaGraphNodeTypeKernel && c->type != cudaGraphNodeTypeMemcpy &&
             c->type != cudaGraphNodeTypeMemset))
    return rt_err(cudaErrorInvalidValue);
  pthread_mutex_lock(&x->mu);
  c->off = !on;
  pthread_mutex_unlock(&x->mu);
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t x, cudaGraphNode_t n, unsigned int *on) {
  RT_API();
  if (exec_check(x) || !on) return rt_err(cudaErrorInvalidValue);
  cudaGraphNode_t c = exec_node(x->g, n);
  if (!c) return rt_err(cudaErrorInvalidValue);
  *on = !c->off;
  return cudaSuccess;
}

/* Whether graph b has a's topology and each node of b could replace a's
 * (same type; a kernel node the same kernel); the first that cannot, in *bad. */
static enum cudaGraphExecUpdateResult same_shape(cudaGraph_t a, cudaGraph_t b, cudaGraphNode_t *bad) {
  if (a->nodes.n != b->nodes.n) return cudaGraphExecUpdateErrorTopologyChanged;
  for (size_t i = 0; i < a->nodes.n; i++) a->nodes.v[i]->idx = i, b->nodes.v[i]->idx = i;
  for (size_t i = 0; i < a->nodes.n; i++) {
    cudaGraphNode_t x = a->nodes.v[i], y = b->nodes.v[i];
    *bad = y->orig;
    if (x->deps.n != y->deps.n) return cudaGraphExecUpdateErrorTopologyChanged;
    for (size_t j = 0; j < x->deps.n; j++)
      if (x->deps.v[j]->idx != y->deps.v[j]->idx) return cudaGraphExecUpdateErrorTopologyChanged;
    if (x->type != y->type) return cudaGraphExecUpdateErrorNodeTypeChanged;
    if (x->job && rt_job_kernel(x->job) != rt_job_kernel(y->job)) return cudaGraphExecUpdateErrorFunctionChanged;
    if (x->type == cudaGraphNodeTypeMemAlloc || x->type == cudaGraphNodeTypeMemFree ||
        x->type == cudaGraphNodeTypeConditional)
      if (x->mem != y->mem || x->dptr != y->dptr || x->cond != y->cond) return cudaGraphExecUpdateErrorNotSupported;
    if (x->child) {
      enum cudaGraphExecUpdateResult r = same_shape(x->child, y->child, bad);
      if (r) return r;
    }
  }
  *bad = NULL;
  return cudaGraphExecUpdateSuccess;
}

/* The executable takes g's parameters where g has its topology and node
 * types (and kernels); its nodes keep standing for the nodes of the graph
 * it was made from. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g, cudaGraphExecUpdateResultInfo *info) {
  RT_API();
  if (exec_check(x) || !g) return rt_err(cudaErrorInvalidValue);
  cudaGraph_t c = copy_graph(g);
  if (!c) return rt_err(cudaErrorMemoryAllocation);
  cudaGraphNode_t bad = NULL;
  enum cudaGraphExecUpdateResult r = sort_graph(c) ? cudaGraphExecUpdateSuccess : cudaGraphExecUpdateErrorTopologyChanged;
  pthread_mutex_lock(&x->mu);
  if (!r) r = same_shape(x->g, c, &bad);
  if (!r) {
    for (size_t i = 0; i < c->nodes.n; i++) c->nodes.v[i]->orig = x->g->nodes.v[i]->orig;
    cudaGraph_t old = x->g;
    x->g = c;
    c = old;
  }
  pthread_mutex_unlock(&x->mu);
  graph_free(c);
  if (info) *info = (cudaGraphExecUpdateResultInfo){r, bad, NULL};
  return r ? rt_err(cudaErrorGraphExecUpdateFailure) : cudaSuccess;
}

/* ---- running ---- */

static void run_graph(cudaGraph_t g) {
  for (size_t i = 0; i < g->nodes.n; i++) {
    cudaGraphNode_t n = g->nodes.v[i];
    if (n->off) continue;
    switch (n->type) {
    case cudaGraphNodeTypeKernel: rt_job_run(n->job); break;
    case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeMemset: rt_xfer_run(&n->x); break;
    case cudaGraphNodeTypeHost: n->host.fn(n->host.userData); break;
    case cudaGraphNodeTypeGraph: run_graph(n->child); break;
    case cudaGraphNodeTypeEventRecord: rt_event_record_now(n->ev); break;
    case cudaGraphNodeTypeWaitEvent: rt_event_wait_latest(n->ev); break;
    case cudaGraphNodeTypeMemAlloc: gm_set_live(n->mem, 1); break;
    case cudaGraphNodeTypeMemFree: rt_graph_mem_free(n->dptr); break;
    case cudaGraphNodeTypeConditional: {
      volatile unsigned *v = &n->cond->val;   /* written by device code */
      if (n->ctype == cudaGraphCondTypeIf) {
        if (*v) run_graph(n->body[0]);
        else if (n->csize == 2) run_graph(n->body[1]);
      } else if (n->ctype == cudaGraphCondTypeWhile) {
        while (*v) run_graph(n->body[0]);
      } else if (*v < n->csize) run_graph(n->body[*v]);
      break;
    }
    default: break;
    }
  }
}

static void run_exec(void *p) {
  cudaGraphExec_t x = p;
  pthread_mutex_lock(&x->mu);
  for (size_t i = 0; i < x->nconds; i++) x->conds[i]->val = x->conds[i]->dflt;
  run_graph(x->g);
  pthread_mutex_unlock(&x->mu);
  exec_release(x);
}

static cudaError_t cap_child(cudaStream_t s, cudaGraph_t g);

cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s) {
  RT_API();
  if (exec_check(x)) return rt_err(cudaErrorInvalidValue);
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (rt_capturing(s)) return cap_child(s, x->g);   /* captured: a child graph node */
  pthread_mutex_lock(&mu_all);
  x->refs++;
  pthread_mutex_unlock(&mu_all);
  rt_stream_push(s, run_exec, x);
  return cudaSuccess;
}

/* Uploading prepares a GPU's copy; an executable here is always ready. */
cudaError_t cudaGraphUpload(cudaGraphExec_t x, cudaStream_t s) {
  RT_API();
  if (exec_check(x)) return rt_err(cudaErrorInvalidValue);
  return rt_err(rt_stream_check(s));
}

static const char *const tnames[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "wait_event",
                                     "event_record", "ext_semas_signal", "ext_semas_wait", "mem_alloc",
                                     "mem_free", "?", "conditional"};

static void dot_graph(FILE *f, cudaGraph_t g, const char *pfx) {
  for (size_t i = 0; i < g->nodes.n; i++) g->nodes.v[i]->idx = i;
  for (size_t i = 0; i < g->nodes.n; i++) {
    cudaGraphNode_t n = g->nodes.v[i];
    fprintf(f, "  \"%s%zu\" [label=\"%s %zu\"];\n", pfx, i, (unsigned)n->type < 14 ? tnames[n->type] : "?", i);
    for (size_t j = 0; j < n->deps.n; j++) fprintf(f, "  \"%s%zu\" -> \"%s%zu\";\n", pfx, n->deps.v[j]->idx, pfx, i);
  }
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t g, const char *path, unsigned int flags) {
  RT_API();
  (void)flags;
  if (!g || !path) return rt_err(cudaErrorInvalidValue);
  FILE *f = fopen(path, "w");
  if (!f) return rt_err(cudaErrorOperatingSystem);
  fprintf(f, "digraph cudaGraph {\n");
  dot_graph(f, g, "n");
  fprintf(f, "}\n");
  fclose(f);
  return cudaSuccess;
}

/* ---- stream capture ---- */

typedef struct Cap {
  cudaGraph_t g;
  bool own;                    /* made by BeginCapture (else the program's, BeginCaptureToGraph) */
  cudaStream_t origin;
  unsigned long long id;
  cudaStream_t *strs;          /* every stream taking part */
  size_t nstrs;
} Cap;

typedef struct SCap { Cap *c; NVec deps; cudaGraphEdgeData *ed; size_t ned; } SCap;   /* a stream's part */

/* events recorded while capturing: what each stands for */
typedef struct CEv { cudaEvent_t e; Cap *c; NVec deps; struct CEv *next; } CEv;
static CEv *cevs;
static pthread_mutex_t cap_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long next_id = 1;
static _Thread_local enum cudaStreamCaptureMode thread_mode;

bool rt_capturing(cudaStream_t s) { return rt_stream_cap(s) != NULL; }

static bool join(Cap *c, cudaStream_t s, const NVec *deps) {
  SCap *sc = calloc(1, sizeof *sc);
  cudaStream_t *v = sc ? realloc(c->strs, (c->nstrs + 1) * sizeof *v) : NULL;
  if (!v) {
    free(sc);
    return false;
  }
  c->strs = v;
  v[c->nstrs++] = s;
  sc->c = c;
  for (size_t i = 0; deps && i < deps->n; i++)
    if (!nv_push(&sc->deps, deps->v[i])) return false;
  rt_stream_set_cap(s, sc);
  return true;
}

static cudaError_t begin(cudaStream_t s, cudaGraph_t g, bool own, const cudaGraphNode_t *deps, size_t nd,
                         enum cudaStreamCaptureMode mode) {
  if (!rt_stream_queued(s)) return rt_err(cudaErrorStreamCaptureUnsupported);   /* the legacy stream */
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if ((unsigned)mode > cudaStreamCaptureModeRelaxed) return rt_err(cudaErrorInvalidValue);
  if (rt_capturing(s)) return rt_err(cudaErrorIllegalState);
  Cap *c = calloc(1, sizeof *c);
  if (!c) return rt_err(cudaErrorMemoryAllocation);
  c->g = g;
  c->own = own;
  c->origin = s;
  NVec d = {0};
  for (size_t i = 0; i < nd; i++)
    if (!deps[i] || deps[i]->g != g || !nv_push(&d, deps[i])) {
      free(d.v);
      free(c);
      return rt_err(cudaErrorInvalidValue);
    }
  pthread_mutex_lock(&cap_mu);
  c->id = next_id++;
  pthread_mutex_unlock(&cap_mu);
  bool ok = join(c, s, &d);
  free(d.v);
  if (!ok) {
    free(c->strs);
    free(c);
    return rt_err(cudaErrorMemoryAllocation);
  }
  return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t s, enum cudaStreamCaptureMode mode) {
  RT_API();
  cudaGraph_t g;
  cudaError_t e = cudaGraphCreate(&g, 0);
  if (e) return e;
  e = begin(s, g, true, NULL, 0, mode);
  if (e) graph_free(g);
  return e;
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *deps,
                                          const cudaGraphEdgeData *ed, size_t nd, enum cudaStreamCaptureMode mode) {
  RT_API();
  if (!g || (nd && !deps)) return rt_err(cudaErrorInvalidValue);
  if (!plain_edges(ed, nd)) return rt_err(cudaErrorNotSupported);
  return begin(s, g, false, deps, nd, mode);
}

cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *out) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  SCap *sc = rt_stream_cap(s);
  if (!sc) return rt_err(cudaErrorIllegalState);
  Cap *c = sc->c;
  if (!out && c->own) return rt_err(cudaErrorInvalidValue);   /* (the program's own graph: no need to say it) */
  if (c->origin != s) return rt_err(cudaErrorStreamCaptureUnmatched);
  for (size_t i = 0; i < c->nstrs; i++) {   /* the capture ends in every stream that joined it */
    SCap *x = rt_stream_cap(c->strs[i]);
    rt_stream_set_cap(c->strs[i], NULL);
    free(x->deps.v);
    free(x->ed);
    free(x);
  }
  pthread_mutex_lock(&cap_mu);
  for (CEv **q = &cevs; *q;)
    if ((*q)->c == c) {
      CEv *d = *q;
      *q = d->next;
      free(d->deps.v);
      free(d);
    } else q = &(*q)->next;
  pthread_mutex_unlock(&cap_mu);
  if (out) *out = c->g;
  free(c->strs);
  free(c);
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t s, enum cudaStreamCaptureStatus *st) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!st) return rt_err(cudaErrorInvalidValue);
  *st = rt_capturing(s) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t s, enum cudaStreamCaptureStatus *st, unsigned long long *id,
                                        cudaGraph_t *g, const cudaGraphNode_t **deps, const cudaGraphEdgeData **ed,
                                        size_t *nd) {
  RT_API();
  cudaError_t e = rt_stream_check(s);
  if (e) return rt_err(e);
  if (!st) return rt_err(cudaErrorInvalidValue);
  SCap *sc = rt_stream_cap(s);
  *st = sc ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (!sc) return cudaSuccess;
  if (id) *id = sc->c->id;
  if (g) *g = sc->c->g;
  if (deps) *deps = sc->deps.v;
  if (ed) {   /* every edge a default one */
    if (sc->ned < sc->deps.n) {
      free(sc->ed);
      sc->ed = calloc(sc->deps.n + 1, sizeof *sc->ed);
      sc->ned = sc->ed ? sc->deps.n : 0;
    }
    *ed = sc->ed;
  }
  if (nd) *nd = sc->deps.n;
  return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, enum cudaStreamCaptureStatus *st, unsigned long long *id,
                                     cudaGraph_t *g, const cudaGraphNode_t **deps, size_t *nd) {
  RT_API();
  return cudaStreamGetCaptureInfo_v3(s, st, id, g, deps, NULL, nd);
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps, size_t nd, unsigned int flags) {
  RT_API();
  SCap *sc = rt_stream_cap(s);
  if (!sc) return rt_err(cudaErrorIllegalState);
  if ((nd && !deps) || flags > cudaStreamSetCaptureDependencies) return rt_err(cudaErrorInvalidValue);
  for (size_t i = 0; i < nd; i++)
    if (!deps[i] || deps[i]->g != sc->c->g) return rt_err(cudaErrorInvalidValue);
  if (flags == cudaStreamSetCaptureDependencies) sc->deps.n = 0;
  for (size_t i = 0; i < nd; i++)
    if (!nv_has(&sc->deps, deps[i]) && !nv_push(&sc->deps, deps[i])) return rt_err(cudaErrorMemoryAllocation);
  return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t s, cudaGraphNode_t *deps,
                                                   const cudaGraphEdgeData *ed, size_t nd, unsigned int flags) {
  RT_API();
  if (!plain_edges(ed, nd)) return rt_err(cudaErrorNotSupported);
  return cudaStreamUpdateCaptureDependencies(s, deps, nd, flags);
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
  RT_API();
  if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed) return rt_err(cudaErrorInvalidValue);
  enum cudaStreamCaptureMode old = thread_mode;
  thread_mode = *mode;
  *mode = old;
  return cudaSuccess;
}

/* n becomes a node of s's capture after its dependencies, then they */
static cudaError_t cap_add(cudaStream_t s, cudaGraphNode_t n) {
  SCap *sc = rt_stream_cap(s);
  cudaGraphNode_t out;
  cudaError_t e = add(&out, sc->c->g, n, sc->deps.v, sc->deps.n);
  if (e) return e;
  sc->deps.n = 0;
  return nv_push(&sc->deps, out) ? cudaSuccess : rt_err(cudaErrorMemoryAllocation);
}

cudaError_t rt_cap_kernel(cudaStream_t s, Job *j) {
  cudaGraphNode_t n = mk(cudaGraphNodeTypeKernel);
  if (!n) {
    rt_job_free(j);
    return rt_err(cudaErrorMemoryAllocation);
  }
  n->job = j;
  return cap_add(s, n);
}

cudaError_t rt_cap_xfer(cudaStream_t s, const rt_xfer *x) {
  cudaGraphNode_t n = mk(x->src ? cudaGraphNodeTypeMemcpy : cudaGraphNodeTypeMemset);
  if (!n) return rt_err(cudaErrorMemoryAllocation);
  n->x = *x;
  if (x->src) {   /* the parameters GetParams reports */
    n->cp.srcPtr = make_cudaPitchedPtr((void *)x->src, x->spitch, x->w, x->h);
    n->cp.dstPtr = make_cudaPitchedPtr(x->dst, x->dpitch, x->w, x->h);
    n->cp.extent = make_cudaExtent(x->w, x->h, x->d);
    n->cp.kind = cudaMemcpyDefault;
  } else n->ms = (struct cudaMemsetParams){x->dst, x->dpitch, x->val, 1, x->w, x->h};
  return cap_add(s, n);
}

cudaError_t rt_cap_host(cudaStream_t s, cudaHostFn_t fn, void *data) {
  cudaGraphNode_t n = mk(cudaGraphNodeTypeHost);
  if (!n) return rt_err(cudaErrorMemoryAllocation);
  n->host = (struct cudaHostNodeParams){fn, data};
  return cap_add(s, n);
}

cudaError_t rt_cap_malloc(cudaStream_t s, void **p, size_t sz, int dev) {
  if (!p) return rt_err(cudaErrorInvalidValue);
  cudaGraphNode_t n = mk(cudaGraphNodeTypeMemAlloc);
  if (n && !(n->mem = gm_new(sz, dev))) {
    node_free(n);
    n = NULL;
  }
  if (!n) return rt_err(cudaErrorMemoryAllocation);
  n->alloc.bytesize = sz;
  n->alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  n->alloc.poolProps.location = (struct cudaMemLocation){cudaMemLocationTypeDevice, dev};
  n->alloc.dptr = n->mem->p;
  *p = n->mem->p;
  return cap_add(s, n);
}

cudaError_t rt_cap_free(cudaStream_t s, void *p) {
  if (!gm_find(p)) return rt_err(cudaErrorInvalidValue);   /* (CUDA: only graph allocations in a capture) */
  cudaGraphNode_t n = mk(cudaGraphNodeTypeMemFree);
  if (!n) return rt_err(cudaErrorMemoryAllocation);
  n->dptr = p;
  return cap_add(s, n);
}

static cudaError_t cap_child(cudaStream_t s, cudaGraph_t g) {
  cudaGraphNode_t n = mk(cudaGraphNodeTypeGraph);
  if (n && !(n->child = copy_graph(g))) {
    node_free(n);
    n = NULL;
  }
  if (!n) return rt_err(cudaErrorMemoryAllocation);
  return cap_add(s, n);
}

cudaError_t rt_cap_record(cudaEvent_t e, cudaStream_t s) {
  SCap *sc = rt_stream_cap(s);
  CEv *v = calloc(1, sizeof *v);
  if (!v) return rt_err(cudaErrorMemoryAllocation);
  v->e = e;
  v->c = sc->c;
  for (size_t i = 0; i < sc->deps.n; i++)
    if (!nv_push(&v->deps, sc->deps.v[i])) {
      free(v->deps.v);
      free(v);
      return rt_err(cudaErrorMemoryAllocation);
    }
  pthread_mutex_lock(&cap_mu);
  for (CEv **q = &cevs; *q; q = &(*q)->next)   /* a later record replaces an earlier one */
    if ((*q)->e == e) {
      CEv *d = *q;
      *q = d->next;
      free(d->deps.v);
      free(d);
      break;
    }
  v->next = cevs;
  cevs = v;
  pthread_mutex_unlock(&cap_mu);
  return cudaSuccess;
}

bool rt_cap_wait(cudaStream_t s, cudaEvent_t e, cudaError_t *err) {
  *err = cudaSuccess;
  pthread_mutex_lock(&cap_mu);
  CEv *v = cevs;
  while (v && v->e != e) v = v->next;
  pthread_mutex_unlock(&cap_mu);
  SCap *sc = rt_stream_cap(s);
  if (!v) {
    if (!sc) return false;   /* nothing to do with a capture */
    /* an event recorded outside the capture: a wait node */
    cudaGraphNode_t n = mk(cudaGraphNodeTypeWaitEvent);
    if (!n) *err = cudaErrorMemoryAllocation;
    else {
      n->ev = e;
      *err = cap_add(s, n);
    }
    return true;
  }
  if (!sc) {   /* a fork: s joins the capture after the event's nodes */
    if (!join(v->c, s, &v->deps)) *err = cudaErrorMemoryAllocation;
    return true;
  }
  if (sc->c != v->c) {   /* two captures cannot merge */
    *err = cudaErrorStreamCaptureIsolation;
    return true;
  }
  for (size_t i = 0; i < v->deps.n; i++)   /* a join */
    if (!nv_has(&sc->deps, v->deps.v[i]) && !nv_push(&sc->deps, v->deps.v[i])) *err = cudaErrorMemoryAllocation;
  return true;
}

void rt_event_forget(cudaEvent_t e) {
  pthread_mutex_lock(&cap_mu);
  for (CEv **q = &cevs; *q;)
    if ((*q)->e == e) {
      CEv *d = *q;
      *q = d->next;
      free(d->deps.v);
      free(d);
    } else q = &(*q)->next;
  pthread_mutex_unlock(&cap_mu);
}

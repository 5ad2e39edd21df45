/* rt.h: libcucc_rt internals shared by its files. */
#ifndef CUCC_RT_INTERNAL_H
#define CUCC_RT_INTERNAL_H
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_runtime_api.h"
#include "cucc_rt.h"

struct rt_dev;
typedef struct Job Job;   /* launch.c */

/* err.c: the per-host-thread last error, as CUDA keeps it */
cudaError_t rt_err(cudaError_t e);   /* records e (if not success), returns it */
void rt_set_sticky(struct rt_dev *d, cudaError_t e);   /* a failed launch: d's next sync reports it */
cudaError_t rt_take_sticky(struct rt_dev *d);
cudaError_t rt_sticky(void);   /* the current device's sticky error, as the last error too */
/* printf.c: device printf's buffer */
void rt_printf_flush(void);
void rt_printf_done(int dev);
void rt_printf_err(const char *msg);
bool rt_printf_used(int dev);
size_t rt_printf_limit(int dev);   /* device.c: cudaLimitPrintfFifoSize */
int rt_run_dev(void);              /* device.c: the device whose blocks this thread runs */

/* mem.c */
bool rt_is_alloc(const void *p);
int rt_alloc_dev(const void *p, unsigned long long *access);   /* device memory: its device and who may access it; else -1 */
void rt_mem_reset(struct rt_dev *d);   /* cudaDeviceReset: d's allocations freed */
/* cudaMalloc's allocation p lies in: its base, size, number (unique in the
 * process) and device; false for any other memory */
bool rt_ipc_source(const void *p, void **base, size_t *n, unsigned long long *id, int *dev);
bool rt_region_ipc_add(void *p, size_t n);   /* another process's memory, opened */
void rt_region_ipc_drop(void *p);

/* arena.c: cudaMalloc's memory, which another process can map */
void *rt_arena_alloc(size_t n);
bool rt_arena_free(void *p, size_t n);   /* false: p is not the arena's */
bool rt_arena_where(const void *p, int *fd, unsigned long long *off);   /* its memfd and offset */

/* ipc.c: an interprocess event's state, shared by the processes that opened it */
typedef struct rt_ipcev {
  _Atomic unsigned long long rec, done;   /* records issued, latest one completed */
  _Atomic unsigned seq;                   /* the futex: bumped at each completion */
} rt_ipcev;
rt_ipcev *rt_ipcev_new(void);
void rt_ipcev_free(rt_ipcev *s, bool imported);
cudaError_t rt_ipcev_export(rt_ipcev *s, cudaIpcEventHandle_t *h);
cudaError_t rt_ipcev_import(const cudaIpcEventHandle_t *h, rt_ipcev **s);
void rt_ipcev_complete(rt_ipcev *s, unsigned long long n);
void rt_ipcev_wait(rt_ipcev *s, unsigned long long n);

/* mem.c: copies and sets, 1-D to 3-D, planned when issued and run later
 * (an asynchronous one, a graph's memcpy or memset node) */
typedef struct rt_xfer {
  char *dst;
  const char *src;            /* NULL: a set to `val` */
  unsigned val;
  int esize;                  /* a set's element: 1, 2 or 4 bytes */
  size_t w, h, d;             /* bytes per row, rows, slices */
  size_t dpitch, spitch;      /* bytes between rows */
  size_t dslice, sslice;      /* bytes between slices */
  int kind;                   /* a copy's cudaMemcpyKind (CUCC_PROFILE=summary) */
} rt_xfer;
void rt_xfer_run(const rt_xfer *x);
cudaError_t rt_xfer_1d(rt_xfer *x, void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
cudaError_t rt_xfer_3d(rt_xfer *x, const struct cudaMemcpy3DParms *p);
cudaError_t rt_xfer_set(rt_xfer *x, const struct cudaMemsetParams *p);
/* graph allocations: memory whose address outlives its frees (graph.c
 * keeps it; mem.c only knows it is device memory) */
bool rt_region_add(void *p, size_t n, int dev);  /* as device memory of a graph, on device dev */
void rt_region_drop(void *p);

/* event.c: what graph nodes and capture need of events */
void rt_event_record_now(cudaEvent_t e);   /* a record that completes at once */
void rt_event_wait_latest(cudaEvent_t e);  /* wait for its latest record */
cudaError_t rt_event_check(cudaEvent_t e);

/* graph.c: stream capture. While a stream captures, the calls that would
 * queue work to it add nodes to its graph instead. */
bool rt_capturing(cudaStream_t s);
cudaError_t rt_cap_kernel(cudaStream_t s, Job *j);          /* takes j */
cudaError_t rt_cap_xfer(cudaStream_t s, const rt_xfer *x);
cudaError_t rt_cap_host(cudaStream_t s, cudaHostFn_t fn, void *data);
cudaError_t rt_cap_record(cudaEvent_t e, cudaStream_t s);
bool rt_cap_wait(cudaStream_t s, cudaEvent_t e, cudaError_t *err);   /* false: not a captured event */
cudaError_t rt_cap_malloc(cudaStream_t s, void **p, size_t n, int dev);
cudaError_t rt_cap_free(cudaStream_t s, void *p);
bool rt_graph_mem_free(void *p);        /* cudaFree of a graph allocation: true if it was one */
void rt_event_forget(cudaEvent_t e);    /* a destroyed event */

/* stream.c: rt_stream_push runs run(arg) in stream s's order (at once, on
 * the caller, for the legacy and per-thread default streams of the current
 * device); run frees arg */
cudaError_t rt_stream_check(cudaStream_t s);   /* cudaErrorInvalidResourceHandle if s is not a stream */
void rt_stream_push(cudaStream_t s, void (*run)(void *), void *arg);
bool rt_stream_queued(cudaStream_t s);         /* has a queue (a created stream) */
struct rt_dev *rt_stream_dev(cudaStream_t s);  /* its device (the default streams: the current one) */
void *rt_stream_cap(cudaStream_t s);            /* graph.c's capture state of s */
void rt_stream_set_cap(cudaStream_t s, void *c);
void rt_stream_sync(cudaStream_t s);           /* wait for what s was given so far */
void rt_legacy_sync(struct rt_dev *d);         /* d's legacy stream's barrier: its blocking streams drained */
void rt_sync_dev(struct rt_dev *d);            /* every stream of d drained */
void rt_sync_all(void);                        /* every stream drained */

/* launch.c; a Job is a checked launch with its own copy of the arguments,
 * run any number of times (a graph's kernel node) */
void rt_launch_init(void);
const cu_kernel *rt_kernel_of(const void *func);   /* NULL: not a kernel */
cudaError_t rt_job_new(const void *func, dim3 g, dim3 b, size_t smem, void **args, Job **out);
void rt_job_run(Job *j);                /* to completion, on the calling thread */
Job *rt_job_copy(const Job *j);
void rt_job_free(Job *j);
void rt_job_params(const Job *j, void **func, dim3 *g, dim3 *b, size_t *smem, void ***argv);
const cu_kernel *rt_job_kernel(const Job *j);
void rt_launch_failed(const cu_block *B);   /* a device fault: the launch fails */
extern _Thread_local const cu_block *rt_fault_block;   /* the block this thread runs (launch.c: faults) */
void rt_run_block(const cu_kernel *k, cu_block *B, const char *params);   /* launch.c: one block, stoppable */

/* co.c: coroutines on stacks of their own (sm.c's resident blocks,
 * warps.c's warps). rt_co_make readies c to run entry (which never
 * returns) at the first switch to it; rt_co_switch saves the running
 * coroutine in from and resumes to. A coroutine that is not running is
 * where rt_co_switch left it: its stack may be dropped with it. */
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(CUCC_PORTABLE_SWITCH)
#define RT_CO_ASM 1
typedef struct rt_co {
  void *sp;                   /* a waiting coroutine's saved stack pointer */
} rt_co;
#else
#include <setjmp.h>
#include <ucontext.h>
typedef struct rt_co {
  ucontext_t ctx;             /* only to enter its stack */
  jmp_buf jb;                 /* where it waits */
  int fresh;                  /* not entered yet */
} rt_co;
#endif
void rt_co_make(rt_co *c, char *stack, size_t size, void (*entry)(void));
void rt_co_switch(rt_co *from, rt_co *to);

/* warps.c: the block's warps as coroutines (cu_kernel.wco), and a warp's
 * barrier there */
void rt_warps_run(const cu_kernel *k, cu_block *B, const char *params);
void rt_warps_batched(const cu_kernel *k, cu_block *B, const char *params);   /* a block of .wco = 2 */
void *rt_warps_out(void);      /* no warp coroutines while another kernel's block runs here */
void rt_warps_in(void *s);
void rt_warps_barrier(const cu_block *B);
bool rt_warp_stack(uintptr_t sp, uintptr_t *top);   /* sp on the running warp's stack: its top */

/* cdp.c: dynamic parallelism. A grid's queue of what its threads launched
 * (child grids, copies, sets), run after its blocks by rt_job_run. */
typedef struct rt_kids {
  pthread_mutex_t mu;
  struct Kid *head, *tail;     /* in order */
  struct Kid *thead, *ttail;   /* cudaStreamTailLaunch: after all the others */
} rt_kids;
void rt_kids_init(rt_kids *q);
int rt_kids_add(rt_kids *q, Job *j, void *stream);   /* takes j; nonzero: no memory */
void rt_kids_run(rt_kids *q, int failed);            /* then empty and destroyed */
rt_kids *rt_grid_kids(const cu_block *B);            /* of B's grid (launch.c) */
struct rt_dev *rt_grid_dev(const cu_block *B);
unsigned long long rt_grid_seq(const cu_block *B);   /* its number in the process */
/* device code's last error: thread tid of block B's (if e is not success); returns e */
cudaError_t rt_dlast(const cu_block *B, unsigned tid, cudaError_t e);
/* mem.c: device memory that device code allocates and frees (no wait) */
cudaError_t rt_dev_malloc(void **p, size_t n, struct rt_dev *d);
cudaError_t rt_dev_free(void *p);
int rt_launch_dev(const cu_block *B);       /* the device B's grid runs on */

/* check.c: cucc --check (nothing happens unless a checked object asked) */
enum { RT_CK_DEV, RT_CK_HOST, RT_CK_MANAGED, RT_CK_OBJ, RT_CK_RT };   /* RT: memory the runtime hands to
                                                                     * device code (the device heap, a texture
                                                                     * object, registered host memory): no leak */
void rt_ck_alloc(void *p, size_t n, int kind, const char *name);
bool rt_ck_free(void *p, int kind);          /* false: reported, not freed */
void rt_ck_written(const void *p, size_t n); /* cudaMemcpy/cudaMemset wrote it */
bool rt_ck_range(const void *p, size_t n, const char *api);   /* false: past an allocation's end */
void rt_ck_reset(void);                      /* cudaDeviceReset */
void rt_ck_enter(int dev);                   /* this thread now runs device dev's blocks */
bool rt_ck_fault(const cu_block *B, unsigned tid, const char *file, int line, const char *msg);
void rt_ck_assert(const cu_block *B, unsigned tid, const char *file, int line);   /* a failed assert: memcheck's report */
extern unsigned cu_ck_what;

/* sched.c: CUCC_SCHEDULE=shuffle[:seed] */
bool rt_sched_shuffle(void);                              /* asked for (read once) */
unsigned rt_versions(void);                               /* CUCC_VERSIONS: CU_MODE_NO_* */
void rt_sched_launch(unsigned long long nblocks, unsigned nwarps);   /* a new order for this launch */
unsigned long long rt_sched_block(unsigned long long i);  /* the i-th block to run */
const unsigned *rt_sched_warps(unsigned long long block); /* its warps' order */

/* prof.c: CUCC_PROFILE=1 (divergence metrics), summary and csv=FILE (nsys
 * --stats's tables of kernels, API calls and memory operations) */
bool rt_prof_on(void);                                    /* the divergence metrics */
void rt_prof_note(const cu_kernel *k, double ms, double occupancy);
extern int rt_prof_sum;                                   /* the tables: read before main */
void rt_prof_kernel(const cu_kernel *k, long long ns);
enum { RT_OP_HTOH, RT_OP_HTOD, RT_OP_DTOH, RT_OP_DTOD, RT_OP_SET, RT_NOPS };
void rt_prof_memop(int op, size_t bytes, long long ns);
long long rt_prof_now(void);                              /* ns, CLOCK_MONOTONIC */

/* RT_API() opens every runtime API function: under CUCC_PROFILE=summary
 * the outermost call of each host thread is timed (one that calls another,
 * cudaMemcpyPeer calling cudaMemcpy, counts once, as nsys counts it).
 * (`unused`: clang does not count the cleanup as a use.) */
typedef struct rt_api { const char *name; long long t0; } rt_api;
rt_api rt_api_enter(const char *name);
void rt_api_leave(rt_api *a);
static inline void rt_api_end(rt_api *a) {
  if (a->t0) rt_api_leave(a);
}
#define RT_API_AS(n) rt_api rt_api_ __attribute__((cleanup(rt_api_end), unused)) = rt_prof_sum ? rt_api_enter(n) : (rt_api){0, 0}
#define RT_API() RT_API_AS(__func__)

/* pool.c: runs fn(first, end, slot, arg) over [0, n) in chunks of at least
 * `chunk` on the calling thread and the helpers it gets (its device's share
 * of the workers), and waits for all. `slot` tells apart the threads that
 * run at once, over every device: a helper's number, or for the caller
 * rt_pool_slots() - ndev + its device's number (one launch at a time per
 * device). */
void rt_pool_run(int dev, unsigned long long n, unsigned long long chunk,
                 void (*fn)(unsigned long long first, unsigned long long end, int slot, void *arg), void *arg);
unsigned long long rt_pool_chunk(unsigned long long n);
void rt_pool_home(unsigned long long n, int parts, int w, unsigned long long *lo, unsigned long long *hi);
bool rt_pool_take(_Atomic unsigned long long *next, unsigned long long n, unsigned long long min, int parts,
                  unsigned long long *lo, unsigned long long *hi);
int rt_pool_workers(void);   /* CUCC_WORKERS, or the cores this process may use */
int rt_pool_slots(void);     /* helpers + devices */
int rt_cores(void);          /* the cores this process may use (affinity, cgroup quota, MPI ranks per node) */

/* models.c: one GPU per compute capability */
typedef struct rt_model {
  int sm;                     /* compute capability, 75 = 7.5 */
  const char *gpu;            /* a representative GPU */
  int sms, threads_block, threads_sm, blocks_sm, cores_sm;
  int smem_sm, smem_block, smem_optin, smem_reserved;   /* bytes */
  int regs_sm, regs_block;
  int reg_unit;               /* register allocation unit */
  int reg_per_warp;           /* 1: registers allocated per warp, 0: per block (1.x) */
  int max_regs_thread;
  int smem_unit;              /* shared memory allocation unit */
  int warp_gran;              /* warp allocation granularity */
  int subparts;               /* SM sub-partitions (register file split) */
  int block_x, block_y, block_z, grid_x, grid_y, grid_z;
  int mem;                    /* MiB of device memory (CUCC_DEVICE's mem=); 0: a share of the host's */
} rt_model;

typedef struct rt_occ {
  int blocks;                 /* resident blocks per SM */
  int by_blocks, by_warps, by_regs, by_smem;
  const char *limiter;        /* which limit set `blocks` */
  double occupancy;           /* active warps / max warps per SM */
} rt_occ;

extern const rt_model rt_models[];
extern const int rt_nmodels;
const rt_model *rt_model_find(int sm);
const rt_model *rt_model_cur(void);   /* the current device's */
int rt_model_default(void);           /* the -arch the program was built for, else 75 */
int rt_occupancy(const rt_model *m, int threads, int regs, size_t smem, rt_occ *o);
int rt_model_parse(const char *spec, int dflt, rt_model *out);
void rt_potential(const rt_model *m, int regs, size_t smem_static, size_t (*smem_of)(int, void *), void *cl,
                  size_t dyn, int maxb, int *grid, int *block);

int rt_kernel_regs(const cu_kernel *k, const rt_model *m);

/* sm.c: run a grid of a kernel with barriers on simulated SMs */
bool rt_interleave_ok(void);
bool rt_sm_switch_ok(void);
void rt_sm_run(struct rt_dev *d, const cu_kernel *k, const char *params, cu_idx3 g, cu_idx3 b, size_t dyn,
               unsigned nthreads, unsigned nwarps, int per_sm, struct cu_launch *launch, _Atomic int *failed);

/* mempool.c: memory pools of stream-ordered allocation */
struct CUmemPoolHandle_st *rt_mempool_of(struct rt_dev *d);   /* d's current pool */
bool rt_mempool_ok(struct CUmemPoolHandle_st *p);             /* a live pool */
struct rt_dev *rt_mempool_dev(struct CUmemPoolHandle_st *p);
unsigned long long rt_mempool_access(struct CUmemPoolHandle_st *p);   /* bit d: device d may access it */
void rt_mempool_note(struct CUmemPoolHandle_st *p, size_t n, bool add);

/* tex.c: a CUDA array as pitched memory (elem: bytes per element) */
struct cudaPitchedPtr rt_array_ptr(cudaArray_t a, size_t *elem);

/* device.c: the simulated devices (CUCC_DEVICES=n, one by default), each
 * with its model (CUCC_DEVICE=sm_XX,sm_YY,...), memory, peers and state */
enum { RT_MAXDEV = 64 };
struct CUmemPoolHandle_st;
typedef struct rt_dev {
  int id;
  rt_model model;
  struct cudaDeviceProp prop;
  size_t total;                     /* its memory: its share of the host's */
  _Atomic size_t used;              /* bytes of device memory allocated on it */
  _Atomic unsigned long long peers; /* bit p: it may access device p's memory */
  _Atomic unsigned flags;           /* cudaSetDeviceFlags */
  _Atomic int sticky;               /* a failed kernel: every later call on it reports this */
  _Atomic int sticky_told;          /* ... and one has (cudaGetLastError reports it no more) */
  pthread_mutex_t launch_mu;        /* one grid at a time on it */
  struct CUmemPoolHandle_st *pool;  /* its current memory pool (cudaDeviceSetMemPool; NULL: the default) */
} rt_dev;
int rt_ndev(void);
rt_dev *rt_dev_at(int d);             /* NULL if d is no device */
rt_dev *rt_cur(void);                 /* the calling thread's current device */
size_t rt_heap_limit(void);           /* its cudaLimitMallocHeapSize (heap.c) */
void rt_set_cur(rt_dev *d);           /* (a stream's thread: its stream's device) */
const struct cudaDeviceProp *rt_props(void);   /* the current device's */
void rt_dev_reset(rt_dev *d);         /* cudaDeviceReset: its peers, flags, limits, error forgotten */
void rt_dev_enter(int dev);           /* this thread now runs device dev's blocks (and rt_ck_enter) */
#endif

/* cucc_rt.h: the ABI between code that cucc generates and libcucc_rt.
 *
 * Three kinds of code meet here:
 *  - the device object: C11 that lowering/ prints for each .cu; it registers
 *    one cu_kernel descriptor per kernel (by mangled name) from a constructor;
 *  - the host object: the user's host C++ with each launch rewritten to
 *    __cucc_push_config(...) ? (void)0 : kernel(args), where `kernel` is a
 *    host stub that calls cu_launch_stub(); it registers stub address -> name;
 *  - the runtime, which joins the two by name at the first launch.
 * Valid C11 and C++. Keep it free of user-visible CUDA names. */
#ifndef CUCC_RT_H
#define CUCC_RT_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Builtins that our CUDA headers' device functions use (and that the
 * generated C therefore calls) but not every C compiler has: clang before
 * 18 has no exp10. The fallback, pow(10, x), is chosen by the compiler that
 * builds the generated C (gcc keeps glibc's exp10). Belongs with the other
 * helpers of generated C (cucc_dev.h, which includes this header). */
#ifdef __has_builtin
#if !__has_builtin(__builtin_exp10f)
#define __builtin_exp10f(x) __builtin_powf(10.0f, (x))
#endif
#if !__has_builtin(__builtin_exp10)
#define __builtin_exp10(x) __builtin_pow(10.0, (x))
#endif
#endif

#define CU_WARP 32            /* lanes per warp, fixed as on every NVIDIA GPU */
#define CU_SMEM_ALIGN 16      /* alignment of static and dynamic shared memory */

typedef struct cu_idx3 { unsigned x, y, z; } cu_idx3;

/* Everything a block function needs about the block it runs. Filled by the
 * runtime for each block; read-only for generated code. */
typedef struct cu_block {
  cu_idx3 blockIdx, blockDim, gridDim;
  unsigned nthreads;          /* blockDim.x * .y * .z */
  unsigned nwarps;            /* ceil(nthreads / 32); the last may be partial */
  char *smem;                 /* this block's shared memory: static part at 0,
                                 dynamic part at cu_dyn_smem_off(kernel) */
  size_t dyn_smem;            /* bytes of dynamic shared memory (launch arg) */
  char *lanes;                /* per-thread storage for values live across a
                                 barrier: kernel->lane_bytes * nwarps * 32 */
  const struct cu_kernel *kernel;
  struct cu_launch *launch;   /* runtime-private: error reporting */
  const unsigned *worder;     /* CUCC_SCHEDULE=shuffle: the order in which the
                                 general version runs the warps; NULL: 0, 1, ... */
  int resident;               /* runs on a simulated SM (sm.c): its barriers may
                                 switch to another resident block */
  void *stop;                 /* runtime-private: the jmp_buf of the call that
                                 runs the block (rt_run_block), where a failed
                                 assert ends it */
  unsigned wself, wend;       /* a kernel whose warps may be coroutines
                                 (wco): the warps this call runs, wself to
                                 wend - 1 (one, or all of them) */
  void *warp;                 /* runtime-private: that warp (warps.c) */
} cu_block;

typedef void (*cu_block_fn)(const cu_block *B, const char *params);

/* One per kernel (per template instantiation), emitted by lowering/. */
typedef struct cu_kernel {
  const char *name;           /* mangled name: the join key with the stub */
  const char *pretty;         /* signature as the user wrote it */
  cu_block_fn fn;             /* runs one whole block */
  unsigned nparams;
  const unsigned *param_off;  /* byte offset of each parameter in params */
  const unsigned *param_size; /* byte size of each parameter */
  unsigned param_bytes;       /* size of the packed parameter buffer */
  unsigned param_align;       /* its alignment */
  unsigned smem_static;       /* bytes of static __shared__ data */
  unsigned lane_bytes;        /* per-thread bytes of cross-barrier storage */
  int nregs;                  /* estimated registers per thread */
  int max_threads;            /* __launch_bounds__ max threads, 0 = none */
  const char *file;           /* where the kernel is defined */
  int line;
  int barriers;               /* has __syncthreads(): calls cu_barrier() */
  int wco;                    /* 1: its warps wait for each other other than
                                 at barriers (a cuda::pipeline with producer
                                 and consumer roles): each warp is a
                                 coroutine, the block function runs warp
                                 B->wself; 2: only at batched atomics
                                 (cu_warps_add), where the runtime chooses,
                                 block by block (warps.c) */
  struct cu_prof *prof;       /* CUCC_PROFILE counters of this kernel */
} cu_kernel;

/* CUCC_PROFILE=1: what the general version of a kernel counts (see
 * runtime/src/prof.c). A "warp statement" is one lane loop of a warp;
 * `lanes` sums its active lanes. Branch sites are the kernel's divergent
 * ifs and loops; `splits[i]` counts the warps that split at site i. */
typedef struct cu_prof {
  unsigned long long lanes, stmts, branches, divergent;
  unsigned nsites;
  const char *const *files;
  const int *lines;
  unsigned long long *splits;
} cu_prof;

/* Run-time modes the generated code reads once per block: CU_MODE_PROF
 * counts (CUCC_PROFILE), CU_MODE_SHUFFLE runs warps in B->worder's order
 * (CUCC_SCHEDULE); either makes every region take its general version.
 * CU_MODE_NO_* keep a region from its block-wide, whole-row or half-row
 * version, or half rows from running two warps at a time (CUCC_VERSIONS),
 * so a test suite can run under each. */
enum { CU_MODE_PROF = 1, CU_MODE_SHUFFLE = 2, CU_MODE_NO_BW = 4, CU_MODE_NO_ROW = 8, CU_MODE_NO_HROW = 16, CU_MODE_NO_PAIR = 32 };
extern unsigned cu_rt_mode;
void cu_prof_add(cu_prof *p, unsigned long long lanes, unsigned long long stmts, unsigned long long branches,
                 unsigned long long divergent);

/* ---- cucc --check: the checked build (runtime/src/check.c) ----
 * Every memory access of checked device code goes through cu_ck() with a
 * static site; the checker decides what the address is (an allocation,
 * the block's shared memory, an object of known size) and reports. */
enum { CU_CK_MEM = 1, CU_CK_RACE = 2, CU_CK_SYNC = 4, CU_CK_INIT = 8, CU_CK_LEAK = 16 };
enum { CU_RD = 1, CU_WR = 2 };
enum { CU_SP_ANY, CU_SP_SHARED, CU_SP_OBJ };   /* what the source says it reaches */
typedef struct cu_site {
  const char *file;
  int line;
  unsigned size, align;
  unsigned char kind;         /* CU_RD | CU_WR */
  unsigned char space;        /* CU_SP_*: through a pointer, a __shared__
                                 variable, a local or __device__ object */
  const unsigned char *data;  /* a record with padding: which of its size
                                 bytes hold a field (initcheck reads no
                                 more; a GPU copies a struct field by
                                 field); NULL: every byte */
} cu_site;
void cu_check_init(unsigned what);   /* checkers of this object (constructor) */
void cu_ck_object(const void *p, size_t n, const char *name);   /* a __device__/__constant__ object */
void cu_ck_block(const cu_block *B);  /* a block starts */
void cu_ck_sync(const cu_block *B);   /* it passes a __syncthreads() */
void *cu_ck_slow(const cu_block *B, unsigned tid, void *p, const cu_site *s, const void *obj, size_t objn);
long long cu_ck_index(const cu_block *B, unsigned tid, long long i, long long n, const cu_site *s);
void cu_ck_mask(const cu_block *B, unsigned w, const unsigned *mask, unsigned act, const char *file, int line);
void cu_ck_syncwarp(const cu_block *B, unsigned tid, unsigned mask, unsigned act, const char *file, int line);

static inline size_t cu_dyn_smem_off(const cu_kernel *k) {
  return ((size_t)k->smem_static + CU_SMEM_ALIGN - 1) & ~(size_t)(CU_SMEM_ALIGN - 1);
}

/* Called from constructors of device objects and host objects. */
void cu_register_kernels(const cu_kernel *const *ks, unsigned n);
void cu_register_stub(const void *stub, const char *name);
/* each __device__/__constant__/__managed__ variable defined in a .cu (its
 * address is the symbol of cudaMemcpyToSymbol & co.) */
void cu_register_symbol(const void *addr, size_t size, const char *name);
/* the device heap (heap.c): malloc/free and new/delete of device code,
 * bounded by cudaLimitMallocHeapSize (NULL past it) */
void *cu_dev_malloc(size_t n);
void cu_dev_free(void *p);
/* a static one: its host unit registers it under a key ("file:name"), the
 * device object binds its pointer to it by that key */
void cu_register_static_symbol(const void *addr, size_t size, const char *key);
void cu_bind_static_symbol(const char *key, void **slot);

/* The host side of a launch: the rewritten <<<...>>> pushes a configuration
 * (returns 0 on success, as nvcc's __cudaPushCallConfiguration), then the
 * stub pops it and launches with pointers to its arguments. */
int __cucc_push_config(cu_idx3 grid, cu_idx3 block, size_t smem, void *stream);
void cu_launch_stub(const void *stub, void **args);

/* The compute capability the device object was compiled for (-arch):
 * the default device model, unless CUCC_DEVICE names another. */
void cu_set_arch(int sm);

/* A block reached a __syncthreads(): the point where an SM may switch to
 * another of its resident blocks (see runtime/src/sm.c). */
void cu_barrier(const cu_block *B);

/* Wait until *p reaches target (counting on, modulo 2^32), letting the
 * block's other warps run meanwhile: a kernel that calls it (through
 * cuda::pipeline's producer_acquire and consumer_wait with roles) runs its
 * warps as coroutines (cu_kernel.wco; runtime/src/warps.c). */
void cu_warp_wait(const unsigned *p, unsigned target);
/* A turn of a loop that waits for memory another warp of the block may
 * store (frontend/spin.c): the block's other warps run meanwhile. */
void cu_warp_yield(void);
/* An atomicAdd of a 4- or 8-byte integer whose result the thread reads,
 * which the block's warps do at once (lowering/batch.c): in a kernel of
 * warp coroutines the warp stops here until every warp of its block has
 * stopped or ended, and one fetch-and-add of their sum serves them all, in
 * warp order; elsewhere the atomic at once. Returns the old value. */
unsigned long long cu_warps_add(void *p, unsigned long long v, int size);

/* An atomicAdd (float, double, 32- or 64-bit integer) whose result no
 * thread reads, at an address the same in every lane (lowering/print.c's
 * p_agg): added into the worker's pending sum for that address, as a
 * GPU's L2 performs such a reduction while the thread goes on, instead of
 * an atomic or a compare-and-swap loop that every worker contends for (a block reduction's one atomicAdd per
 * block). The sums reach memory when the worker ends its share of the
 * grid, at a __threadfence(), a grid sync, and, for the block that made
 * them, at its __syncthreads() (so that its own threads see them). */
#define CU_NRED 4
typedef struct cu_red {
  void *p;                    /* NULL: free */
  unsigned long long blk;     /* the last block that added (cu_red_blk) */
  double d;
  unsigned long long u;       /* an integer sum, wrapping (its low 32 bits for int and unsigned) */
  float f;
  int kind;                   /* CU_RED_F, _D, _U32, _U64 */
} cu_red;
enum { CU_RED_F, CU_RED_D, CU_RED_U32, CU_RED_U64 };
extern __thread cu_red cu_reds[CU_NRED];   /* (__thread: C and C++ both read this header) */
extern __thread int cu_nred;   /* slots in use */
void cu_red_flush(int only, unsigned long long blk);   /* all, or (only) blk's */

/* grid.sync() of cooperative groups: call it once per block, with all the
 * block's threads between two block barriers (a block-level statement of
 * the generated code). Blocks wait for the whole grid; launched with
 * cudaLaunchCooperativeKernel, the grid is resident all at once. */
void cu_grid_sync(const cu_block *B);

/* Device-side faults found by generated code (division checks, barrier
 * misuse...): prints "kernel, block, thread, file:line: msg" and marks the
 * launch failed (cudaErrorLaunchFailure at the next synchronization). */
void cu_fault(const cu_block *B, unsigned tid, const char *file, int line,
              const char *msg);
/* the same with the error the launch then fails with (cudaErrorAssert for
 * a failed assert() in a kernel) */
void cu_fault_err(const cu_block *B, unsigned tid, const char *file, int line,
                  const char *msg, int err);
/* ends the running block where rt_run_block called it (a failed assert:
 * the launch has failed already) */
__attribute__((noreturn)) void cu_block_stop(const cu_block *B);

#ifdef __cplusplus
}
/* A kernel stub names its own type from its parameters' (decltype), minus
 * a __restrict__ on them: g++ keeps it in a dependent function type, which
 * then matches no function (cuda-samples' reduction kernels). */
template <class T> struct __cucc_unrestrict { typedef T type; };
template <class T> struct __cucc_unrestrict<T *__restrict__> { typedef T *type; };
template <class T> using __cucc_unrestrict_t = typename __cucc_unrestrict<T>::type;
#endif
#endif

/* cuda_runtime.h: what a .cu file sees (our own header, never the CUDA
 * toolkit's). cucc includes it first in every .cu, as nvcc does.
 *  - __CUCC_PARSE__: libclang's view in CUDA mode. Builtin variables and
 *    intrinsics are declared here and recognized by name by the frontend;
 *    the inline device functions below are compiled by cucc like user code.
 *  - __CUCC_HOST__: the host unit, compiled by the system C++ compiler. */
#ifndef CUCC_CUDA_RUNTIME_H
#define CUCC_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__   /* CUDA's guard: the samples' helper_cuda.h tests it */
#include "cuda_runtime_api.h"
#include "device_types.h"
#include <cucc_rt.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_math.h"

#ifdef __cplusplus
/* placement new in host and device code without #include <new>: CUDA's
 * headers bring <new> in for every .cu */
#include <new>
/* typed forms of the allocation calls, as CUDA's header has them */
template <class T> static inline __host__ __device__ cudaError_t cudaMalloc(T **p, size_t n) {
  return cudaMalloc((void **)p, n);
}
template <class T> static inline cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t s) {
  return cudaMallocAsync((void **)p, n, s);
}
template <class T> static inline cudaError_t cudaMallocAsync(T **p, size_t n, cudaMemPool_t pool, cudaStream_t s) {
  return cudaMallocFromPoolAsync((void **)p, n, pool, s);
}
template <class T> static inline cudaError_t cudaMallocFromPoolAsync(T **p, size_t n, cudaMemPool_t pool, cudaStream_t s) {
  return cudaMallocFromPoolAsync((void **)p, n, pool, s);
}
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t n) {
  return cudaMallocHost((void **)p, n);
}
template <class T> static inline cudaError_t cudaHostAlloc(T **p, size_t n, unsigned f) {
  return cudaHostAlloc((void **)p, n, f);
}
template <class T> static inline cudaError_t cudaMallocManaged(T **p, size_t n, unsigned f = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)p, n, f);
}
template <class T> static inline cudaError_t cudaLaunchKernel(T *f, dim3 g, dim3 b, void **a, size_t s = 0, cudaStream_t st = 0) {
  return cudaLaunchKernel((const void *)f, g, b, a, s, st);
}
template <class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *f, dim3 g, dim3 b, void **a, size_t s = 0,
                                                      cudaStream_t st = 0) {
  return cudaLaunchCooperativeKernel((const void *)f, g, b, a, s, st);
}
template <class T> static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, T *f) {
  return cudaFuncGetAttributes(a, (const void *)f);
}
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *f, enum cudaFuncAttribute a, int v) {
  return cudaFuncSetAttribute((const void *)f, a, v);
}
template <class T> static inline cudaError_t cudaFuncSetCacheConfig(T *f, enum cudaFuncCache c) {
  return cudaFuncSetCacheConfig((const void *)f, c);
}
template <class T> static inline cudaError_t cudaFuncSetSharedMemConfig(T *f, enum cudaSharedMemConfig c) {
  return cudaFuncSetSharedMemConfig((const void *)f, c);
}
template <class T> static inline cudaError_t cudaHostGetDevicePointer(T **d, void *h, unsigned int flags) {
  return cudaHostGetDevicePointer((void **)d, h, flags);
}
/* cudaLaunchKernelEx(&config, kernel, args...): the arguments converted to
 * the kernel's parameter types, then launched as cudaLaunchKernelExC */
template <class... P, class... A>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(P...), A &&...args) {
  return [&](P... ps) {
    void *pv[sizeof...(P) + 1] = {(void *)&ps...};
    return cudaLaunchKernelExC(config, (const void *)kernel, pv);
  }(static_cast<P>(args)...);
}
template <class T> static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, T *kernel, void **args) {
  return cudaLaunchKernelExC(config, (const void *)kernel, args);
}
template <class T> static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t w, size_t h) {
  return cudaMallocPitch((void **)p, pitch, w, h);
}
/* the channel format of a texel type, as CUDA's template gives it */
template <class T> struct cu_chan { static const int n = 0, bits = 0, kind = cudaChannelFormatKindNone; };
#define CU_CHAN(T, N, B, K) \
  template <> struct cu_chan<T> { static const int n = N, bits = B, kind = cudaChannelFormatKind##K; };
CU_CHAN(float, 1, 32, Float) CU_CHAN(float2, 2, 32, Float) CU_CHAN(float4, 4, 32, Float)
CU_CHAN(int, 1, 32, Signed) CU_CHAN(int2, 2, 32, Signed) CU_CHAN(int4, 4, 32, Signed)
CU_CHAN(unsigned int, 1, 32, Unsigned) CU_CHAN(uint2, 2, 32, Unsigned) CU_CHAN(uint4, 4, 32, Unsigned)
CU_CHAN(short, 1, 16, Signed) CU_CHAN(short2, 2, 16, Signed) CU_CHAN(short4, 4, 16, Signed)
CU_CHAN(unsigned short, 1, 16, Unsigned) CU_CHAN(ushort2, 2, 16, Unsigned) CU_CHAN(ushort4, 4, 16, Unsigned)
CU_CHAN(char, 1, 8, Signed) CU_CHAN(signed char, 1, 8, Signed) CU_CHAN(char2, 2, 8, Signed)
CU_CHAN(char4, 4, 8, Signed) CU_CHAN(unsigned char, 1, 8, Unsigned) CU_CHAN(uchar2, 2, 8, Unsigned)
CU_CHAN(uchar4, 4, 8, Unsigned)
#undef CU_CHAN
template <class T> static inline struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  const int n = cu_chan<T>::n, b = cu_chan<T>::bits;
  return cudaCreateChannelDesc(b, n > 1 ? b : 0, n > 2 ? b : 0, n > 3 ? b : 0,
                               (enum cudaChannelFormatKind)cu_chan<T>::kind);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, T *f, int bs, size_t dyn,
                                                                                 unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, (const void *)f, bs, dyn, flags);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T *f, int bs, size_t dyn) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)f, bs, dyn);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, T *f, size_t dyn = 0,
                                                             int limit = 0) {
  return cu_occupancy_potential(min_grid, block, (const void *)f, 0, 0, dyn, limit);
}
template <class F> static size_t cu_smem_thunk(int bs, void *cl) { return (size_t)(*(F *)cl)(bs); }
template <class F, class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *min_grid, int *block, T *f,
                                                                         F smem_of, int limit = 0) {
  return cu_occupancy_potential(min_grid, block, (const void *)f, cu_smem_thunk<F>, &smem_of, 0, limit);
}
/* the symbol API taking the __device__/__constant__ variable itself */
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &sym, const void *src, size_t n, size_t off = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&sym, src, n, off, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&sym, n, off, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &sym, const void *src, size_t n, size_t off = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                  cudaStream_t st = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&sym, src, n, off, kind, st);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &sym, size_t n, size_t off = 0,
                                                    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                    cudaStream_t st = 0) {
  return cudaMemcpyFromSymbolAsync(dst, (const void *)&sym, n, off, kind, st);
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **p, const T &sym) {
  return cudaGetSymbolAddress(p, (const void *)&sym);
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *n, const T &sym) {
  return cudaGetSymbolSize(n, (const void *)&sym);
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned int flags) {
  return cudaEventCreateWithFlags(e, flags);
}

/* The forms other CUDA versions give these calls, as overloads: CUDA 11's
 * cudaGraphInstantiate (error node, log) and cudaGraphExecUpdate (error
 * node, result); CUDA 13's edge data, memory locations and
 * cudaGraphAddNode. */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g, cudaGraphNode_t *err_node,
                                               char *log, size_t log_size) {
  if (err_node) *err_node = NULL;
  if (log && log_size) *log = 0;
  return cudaGraphInstantiate(x, g, 0ull);
}
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g, cudaGraphNode_t *err_node,
                                              enum cudaGraphExecUpdateResult *result) {
  cudaGraphExecUpdateResultInfo i;
  cudaError_t e = cudaGraphExecUpdate(x, g, &i);
  if (err_node) *err_node = i.errorNode;
  if (result) *result = i.result;
  return e;
}
static inline cudaError_t cudaGraphAddNode(cudaGraphNode_t *n, cudaGraph_t g, const cudaGraphNode_t *deps,
                                           const cudaGraphEdgeData *ed, size_t nd, struct cudaGraphNodeParams *p) {
  return cudaGraphAddNode_v2(n, g, deps, ed, nd, p);
}
static inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, enum cudaStreamCaptureStatus *st,
                                                   unsigned long long *id, cudaGraph_t *g,
                                                   const cudaGraphNode_t **deps, const cudaGraphEdgeData **ed,
                                                   size_t *nd) {
  return cudaStreamGetCaptureInfo_v3(s, st, id, g, deps, ed, nd);
}
static inline cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps,
                                                              const cudaGraphEdgeData *ed, size_t nd,
                                                              unsigned int flags) {
  return cudaStreamUpdateCaptureDependencies_v2(s, deps, ed, nd, flags);
}
static inline cudaError_t cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                            cudaGraphEdgeData *ed, size_t *n) {
  cudaError_t e = cudaGraphGetEdges(g, from, to, n);
  if (!e && ed && from) memset(ed, 0, *n * sizeof *ed);
  return e;
}
static inline cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                                       cudaGraphEdgeData *ed, size_t *n) {
  cudaError_t e = cudaGraphNodeGetDependencies(node, deps, n);
  if (!e && ed && deps) memset(ed, 0, *n * sizeof *ed);
  return e;
}
static inline cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *out,
                                                         cudaGraphEdgeData *ed, size_t *n) {
  cudaError_t e = cudaGraphNodeGetDependentNodes(node, out, n);
  if (!e && ed && out) memset(ed, 0, *n * sizeof *ed);
  return e;
}
static inline cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from,
                                                   const cudaGraphNode_t *to, const cudaGraphEdgeData *ed,
                                                   size_t n) {
  for (size_t i = 0; ed && i < n; i++)
    if (ed[i].from_port || ed[i].to_port || ed[i].type) return cudaErrorNotSupported;
  return cudaGraphAddDependencies(g, from, to, n);
}
static inline cudaError_t cudaGraphRemoveDependencies(cudaGraph_t g, const cudaGraphNode_t *from,
                                                      const cudaGraphNode_t *to, const cudaGraphEdgeData *ed,
                                                      size_t n) {
  (void)ed;
  return cudaGraphRemoveDependencies(g, from, to, n);
}
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation loc, unsigned int flags,
                                               cudaStream_t s = 0) {
  return cudaMemPrefetchAsync_v2(p, n, loc, flags, s);
}
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise a, struct cudaMemLocation loc) {
  return cudaMemAdvise_v2(p, n, a, loc);
}
template <class T>
static inline cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *n, cudaGraph_t g,
                                                         const cudaGraphNode_t *deps, size_t nd, const T &sym,
                                                         const void *src, size_t count, size_t off = 0,
                                                         enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaGraphAddMemcpyNode1D(n, g, deps, nd, (char *)&sym + off, src, count, kind);
}
template <class T>
static inline cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *n, cudaGraph_t g,
                                                           const cudaGraphNode_t *deps, size_t nd, void *dst,
                                                           const T &sym, size_t count, size_t off = 0,
                                                           enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaGraphAddMemcpyNode1D(n, g, deps, nd, dst, (const char *)&sym + off, count, kind);
}

/* k<<<g, b, smem, stream>>>(args) becomes
 * (__cucc_launch_config(g, b, smem, stream) ? (void)0 : k(args)) */
static inline int __cucc_launch_config(dim3 g, dim3 b, size_t smem = 0, cudaStream_t s = 0) {
  cu_idx3 gg = {g.x, g.y, g.z}, bb = {b.x, b.y, b.z};
  return __cucc_push_config(gg, bb, smem, (void *)s);
}
#endif

/* what nvcc's cuda_runtime.h brings into host code on its way
 * (host_defines.h, crt/common_functions.h, cuda_runtime.h itself):
 * programs call time() or isdigit() or use std::move without including
 * their headers, and nvcc compiles them. (Its <new>, <stdio.h> and
 * <assert.h> come only in the device pass: a program that uses placement
 * new without <new> fails nvcc's host pass.) */
#ifdef __cplusplus
#include <utility>
#endif
#include <ctype.h>
#include <time.h>

#if defined(__CUCC_PARSE__) && defined(__cplusplus)
/* device code's operator new and delete, as CUDA's device pass declares
 * them (its placement forms come from <new> there): the
 * frontend lowers new/delete expressions itself (the device heap of
 * cucc_rt.h, placement new a store), so these are only for the parse */
__device__ inline void *operator new(size_t, void *p) noexcept { return p; }
__device__ inline void *operator new[](size_t, void *p) noexcept { return p; }
__device__ inline void operator delete(void *, void *) noexcept {}
__device__ inline void operator delete[](void *, void *) noexcept {}
__device__ void *operator new(size_t);
__device__ void *operator new[](size_t);
__device__ void operator delete(void *) noexcept;
__device__ void operator delete[](void *) noexcept;
__device__ void operator delete(void *, size_t) noexcept;
__device__ void operator delete[](void *, size_t) noexcept;
/* device code's malloc and free (the device heap: cu_dev_malloc) */
extern "C" {
__device__ void *malloc(size_t) __attribute__((nothrow));
__device__ void free(void *) __attribute__((nothrow));
}
#endif

#if defined(__CUCC_PARSE__)
/* clang's <<<>>> needs one of these declared (never called by cucc) */
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, size_t smem = 0, cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem = 0, void *stream = 0);
#endif

#include "device_functions.h"
#include "texture_indirect_functions.h"
#endif

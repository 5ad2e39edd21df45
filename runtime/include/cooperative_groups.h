/* cooperative_groups.h: CUDA's cooperative groups (our own header).
 * The groups are ordinary C++ classes whose methods call the intrinsics
 * (__syncthreads, __shfl_*_sync, __ballot_sync, __activemask); cucc
 * compiles them like user code, inlining every method that holds a
 * barrier or a collective into the kernel (frontend/inline.c).
 *  - thread_block: sync() is __syncthreads();
 *  - thread_block_tile<N> (N a power of two <= 32) and the thread_group
 *    that tiled_partition(parent, n) returns: tiles of a warp, collectives
 *    with width N;
 *  - coalesced_group: the lanes of a warp that execute coalesced_threads();
 *  - grid_group: ranks and sizes; grid.sync() is a grid-wide barrier
 *    (__cucc_grid_sync, lowered once per block: cu_grid_sync) that works
 *    in a cudaLaunchCooperativeKernel launch, whose blocks are all
 *    resident; elsewhere it faults the launch.
 * Host code sees only the namespace. */
#ifndef CUCC_COOPERATIVE_GROUPS_H
#define CUCC_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"

namespace cooperative_groups {
#if defined(__CUCC_PARSE__)
namespace __cu {
static __device__ inline unsigned tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
static __device__ inline unsigned nthreads() { return blockDim.x * blockDim.y * blockDim.z; }
static __device__ inline unsigned lane() { return tid() & 31u; }
static __device__ inline unsigned lanes_below() { return (1u << lane()) - 1u; }
/* the lane holding rank r of a coalesced group */
static __device__ inline int nth_lane(unsigned mask, unsigned r) {
  for (int l = 0; l < 32; l++)
    if (mask >> l & 1u) {
      if (r == 0) return l;
      r--;
    }
  return 0;
}
/* the bits of b at the lanes of mask, packed in rank order */
static __device__ inline unsigned pack(unsigned b, unsigned mask) {
  unsigned r = 0, k = 0;
  for (int l = 0; l < 32; l++)
    if (mask >> l & 1u) r |= (b >> l & 1u) << k++;
  return r;
}
static __device__ inline unsigned tile_bits(unsigned n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1u; }
/* shuffles of any type the intrinsics take (found at instantiation: a
 * __half's too, cuda_fp16.h's), and of vector types member by member, as
 * CUDA's groups shuffle any trivially copyable type */
template <class T> static __device__ inline T shfl(unsigned k, T v, int s, int w) { return __shfl_sync(k, v, s, w); }
template <class T> static __device__ inline T shfl_up(unsigned k, T v, unsigned d, int w) {
  return __shfl_up_sync(k, v, d, w);
}
template <class T> static __device__ inline T shfl_down(unsigned k, T v, unsigned d, int w) {
  return __shfl_down_sync(k, v, d, w);
}
template <class T> static __device__ inline T shfl_xor(unsigned k, T v, int m, int w) { return __shfl_xor_sync(k, v, m, w); }
#define CU_SHV2(T, OP, A)                                                                                  \
  static __device__ inline T OP(unsigned k, T v, A a, int w) {                                             \
    v.x = OP(k, v.x, a, w);                                                                                \
    v.y = OP(k, v.y, a, w);                                                                                \
    return v;                                                                                              \
  }
#define CU_SHV4(T, OP, A)                                                                                  \
  static __device__ inline T OP(unsigned k, T v, A a, int w) {                                             \
    v.x = OP(k, v.x, a, w);                                                                                \
    v.y = OP(k, v.y, a, w);                                                                                \
    v.z = OP(k, v.z, a, w);                                                                                \
    v.w = OP(k, v.w, a, w);                                                                                \
    return v;                                                                                              \
  }
#define CU_SHVS(T, V) V(T, shfl, int) V(T, shfl_up, unsigned) V(T, shfl_down, unsigned) V(T, shfl_xor, int)
CU_SHVS(int2, CU_SHV2) CU_SHVS(uint2, CU_SHV2) CU_SHVS(float2, CU_SHV2) CU_SHVS(double2, CU_SHV2)
CU_SHVS(longlong2, CU_SHV2) CU_SHVS(ulonglong2, CU_SHV2)
CU_SHVS(int4, CU_SHV4) CU_SHVS(uint4, CU_SHV4) CU_SHVS(float4, CU_SHV4)
#undef CU_SHVS
#undef CU_SHV2
#undef CU_SHV4
__device__ void __cucc_grid_sync(void);
}

class thread_block {
public:
  unsigned _tag;
  __device__ thread_block() : _tag(0) {}
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned thread_rank() const { return __cu::tid(); }
  __device__ unsigned size() const { return __cu::nthreads(); }
  __device__ unsigned num_threads() const { return __cu::nthreads(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
};
static __device__ inline thread_block this_thread_block() { return thread_block(); }
/* scratch for tiles of several warps: cucc's groups keep their own */
template <unsigned MaxBlockSize = 1024> struct block_tile_memory { unsigned _unused; };
template <unsigned M> static __device__ inline thread_block this_thread_block(block_tile_memory<M> &) { return thread_block(); }

/* a tile's barrier: the warp's for a tile of a warp or less, the block's
 * for a tile of several warps (every thread of the block takes part, as
 * with the block's scratch memory on a GPU) */
namespace __cu {
template <bool MultiWarp> struct tile_sync { static __device__ void run() { __syncwarp(); } };
template <> struct tile_sync<true> { static __device__ void run() { __syncthreads(); } };
}

template <unsigned N> class thread_block_tile {
  static_assert(N && N <= 1024 && (N & (N - 1)) == 0, "tile size must be a power of two up to 1024");
public:
  unsigned _tag;
  __device__ thread_block_tile() : _tag(N) {}
  __device__ void sync() const { __cu::tile_sync<(N > 32)>::run(); }
  __device__ unsigned thread_rank() const { return __cu::tid() & (N - 1); }
  __device__ unsigned size() const { return N; }
  __device__ unsigned num_threads() const { return N; }
  __device__ unsigned meta_group_rank() const { return __cu::tid() / N; }
  __device__ unsigned meta_group_size() const { return (__cu::nthreads() + N - 1) / N; }
  template <class T> __device__ T shfl(T v, int src) const { return __cu::shfl(0xffffffffu, v, src, N); }
  template <class T> __device__ T shfl_down(T v, unsigned d) const { return __cu::shfl_down(0xffffffffu, v, d, N); }
  template <class T> __device__ T shfl_up(T v, unsigned d) const { return __cu::shfl_up(0xffffffffu, v, d, N); }
  template <class T> __device__ T shfl_xor(T v, int m) const { return __cu::shfl_xor(0xffffffffu, v, m, N); }
  /* bit i: the thread of rank i in this tile */
  __device__ unsigned ballot(int p) const {
    static_assert(N <= 32, "ballot, any, all and shuffles need a tile of at most 32 threads");
    return (__ballot_sync(0xffffffffu, p) >> (__cu::lane() & ~(N - 1))) & __cu::tile_bits(N);
  }
  __device__ int any(int p) const { return ballot(p) != 0; }
  __device__ int all(int p) const {
    unsigned b = ballot(p);
    return b == ballot(1);
  }
};
template <unsigned N> static __device__ inline thread_block_tile<N> tiled_partition(const thread_block &) {
  return thread_block_tile<N>();
}

/* A group known at run time: a block, a tile of _size threads, or the
 * lanes _mask of a warp. */
class thread_group {
public:
  unsigned _kind, _size, _mask;   /* _kind 0: block, 1: tile, 2: coalesced */
  __device__ thread_group(unsigned k, unsigned s, unsigned m) : _kind(k), _size(s), _mask(m) {}
  __device__ thread_group(const thread_block &) : _kind(0), _size(0), _mask(0) {}
  template <unsigned N> __device__ thread_group(const thread_block_tile<N> &) : _kind(1), _size(N), _mask(0) {}
  __device__ void sync() const {
    if (_kind == 0) __syncthreads();
    else __syncwarp();
  }
  __device__ unsigned thread_rank() const {
    return _kind == 0 ? __cu::tid() : _kind == 1 ? (__cu::tid() & (_size - 1)) : __popc(_mask & __cu::lanes_below());
  }
  __device__ unsigned size() const {
    return _kind == 0 ? __cu::nthreads() : _kind == 1 ? _size : __popc(_mask);
  }
  __device__ unsigned num_threads() const { return size(); }
  __device__ unsigned meta_group_rank() const { return _kind == 1 ? __cu::tid() / _size : 0; }
  __device__ unsigned meta_group_size() const { return _kind == 1 ? (__cu::nthreads() + _size - 1) / _size : 1; }
};
static __device__ inline thread_group tiled_partition(const thread_group &, unsigned n) { return thread_group(1, n, 0); }
static __device__ inline thread_group tiled_partition(const thread_block &, unsigned n) { return thread_group(1, n, 0); }

class coalesced_group {
public:
  unsigned _mask;
  __device__ explicit coalesced_group(unsigned m) : _mask(m) {}
  __device__ void sync() const { __syncwarp(); }
  __device__ unsigned thread_rank() const { return __popc(_mask & __cu::lanes_below()); }
  __device__ unsigned size() const { return __popc(_mask); }
  __device__ unsigned num_threads() const { return size(); }
  __device__ unsigned meta_group_rank() const { return 0; }
  __device__ unsigned meta_group_size() const { return 1; }
  template <class T> __device__ T shfl(T v, unsigned rank) const {
    return __cu::shfl(_mask, v, __cu::nth_lane(_mask, rank), 32);
  }
  template <class T> __device__ T shfl_down(T v, unsigned d) const {
    unsigned r = thread_rank() + d;
    return __cu::shfl(_mask, v, __cu::nth_lane(_mask, r < size() ? r : thread_rank()), 32);
  }
  template <class T> __device__ T shfl_up(T v, unsigned d) const {
    unsigned r = thread_rank();
    return __cu::shfl(_mask, v, __cu::nth_lane(_mask, r >= d ? r - d : r), 32);
  }
  __device__ unsigned ballot(int p) const { return __cu::pack(__ballot_sync(_mask, p), _mask); }
  __device__ int any(int p) const { return __ballot_sync(_mask, p) != 0; }
  __device__ int all(int p) const { return __ballot_sync(_mask, p) == _mask; }
};
static __device__ inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }
/* the threads of g with the same label (or predicate) */
static __device__ inline coalesced_group labeled_partition(const coalesced_group &g, int label) {
  return coalesced_group(__match_any_sync(g._mask, label));
}
template <unsigned N>
static __device__ inline coalesced_group labeled_partition(const thread_block_tile<N> &, int label) {
  return coalesced_group(__match_any_sync(0xffffffffu, label) & (__cu::tile_bits(N) << (__cu::lane() & ~(N - 1))));
}
static __device__ inline coalesced_group binary_partition(const coalesced_group &g, bool pred) {
  return labeled_partition(g, pred ? 1 : 0);
}
template <unsigned N>
static __device__ inline coalesced_group binary_partition(const thread_block_tile<N> &g, bool pred) {
  return labeled_partition(g, pred ? 1 : 0);
}

class grid_group {
public:
  unsigned _tag;
  __device__ grid_group() : _tag(0) {}
  __device__ bool is_valid() const { return true; }
  __device__ void sync() const { __cu::__cucc_grid_sync(); }
  __device__ unsigned long long thread_rank() const {
    unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    return b * __cu::nthreads() + __cu::tid();
  }
  __device__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * __cu::nthreads();
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
};
static __device__ inline grid_group this_grid() { return grid_group(); }

template <class G> static __device__ inline void sync(const G &g) { g.sync(); }
#endif
}
#endif

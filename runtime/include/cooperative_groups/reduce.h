/* cooperative_groups/reduce.h: cg::reduce over a tile or a coalesced group
 * with the function objects CUDA defines (our own header). */
#ifndef CUCC_CG_REDUCE_H
#define CUCC_CG_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
#if defined(__CUCC_PARSE__)
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };

namespace __cu {
/* a tile of a warp or less: a butterfly, every thread ends with the result */
template <bool MultiWarp> struct tile_reduce {
  template <unsigned N, class T, class Op> static __device__ T run(const thread_block_tile<N> &g, T v, Op op) {
    for (unsigned o = N / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o));
    return v;
  }
};
/* a tile of several warps: each warp's butterfly, then the tile's warps
 * through shared memory (every thread of the block takes part) */
template <> struct tile_reduce<true> {
  template <unsigned N, class T, class Op> static __device__ T run(const thread_block_tile<N> &, T v, Op op) {
    __shared__ T part[32];
    for (unsigned o = 16; o > 0; o /= 2) v = op(v, shfl_xor(0xffffffffu, v, o, 32));
    if (lane() == 0) part[tid() / 32] = v;
    __syncthreads();
    unsigned first = tid() / N * (N / 32);
    T r = part[first];
    for (unsigned i = 1; i < N / 32; i++) r = op(r, part[first + i]);
    __syncthreads();
    return r;
  }
};
}

template <unsigned N, class T, class Op>
static __device__ inline T reduce(const thread_block_tile<N> &g, T v, Op op) {
  return __cu::tile_reduce<(N > 32)>::run(g, v, op);
}
template <class T, class Op> static __device__ inline T reduce(const coalesced_group &g, T v, Op op) {
  T r = g.shfl(v, 0);
  for (unsigned i = 1; i < g.size(); i++) r = op(r, g.shfl(v, i));
  return r;
}
#endif
}
#endif

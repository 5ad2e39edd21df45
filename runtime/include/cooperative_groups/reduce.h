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

/* a butterfly: every thread of the tile ends with the whole result */
template <unsigned N, class T, class Op>
static __device__ inline T reduce(const thread_block_tile<N> &g, T v, Op op) {
  for (unsigned o = N / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, o));
  return v;
}
template <class T, class Op> static __device__ inline T reduce(const coalesced_group &g, T v, Op op) {
  T r = g.shfl(v, 0);
  for (unsigned i = 1; i < g.size(); i++) r = op(r, g.shfl(v, i));
  return r;
}
#endif
}
#endif

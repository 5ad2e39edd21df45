/* cooperative_groups/scan.h: cg::inclusive_scan and cg::exclusive_scan over
 * a tile of a warp or less or a coalesced group, with the function objects
 * of reduce.h (plus by default) (our own header). */
#ifndef CUCC_CG_SCAN_H
#define CUCC_CG_SCAN_H
#include "reduce.h"

namespace cooperative_groups {
#if defined(__CUCC_PARSE__)
/* a tile: Hillis-Steele steps over shfl_up; a lower rank's prefix comes
 * first in op (op need not commute) */
template <unsigned N, class T, class Op>
static __device__ inline T inclusive_scan(const thread_block_tile<N> &g, T v, Op op) {
  static_assert(N <= 32, "cg::inclusive_scan: a tile of at most 32 threads");
  unsigned r = g.thread_rank();
  for (unsigned o = 1; o < N; o *= 2) {
    T u = g.shfl_up(v, o);
    if (r >= o) v = op(u, v);
  }
  return v;
}
/* a coalesced group: its members in rank order */
template <class T, class Op> static __device__ inline T inclusive_scan(const coalesced_group &g, T v, Op op) {
  unsigned r = g.thread_rank();
  T acc = g.shfl(v, 0), mine = acc;
  for (unsigned i = 1; i < g.size(); i++) {
    acc = op(acc, g.shfl(v, i));
    if (i == r) mine = acc;
  }
  return mine;
}
/* exclusive: the inclusive scan of the rank before; rank 0 gets T() (the
 * identity of plus, bit_or and bit_xor; CUDA leaves it undefined for the
 * others) */
template <class G, class T, class Op> static __device__ inline T exclusive_scan(const G &g, T v, Op op) {
  T inc = inclusive_scan(g, v, op);
  unsigned r = g.thread_rank();
  T before = g.shfl(inc, r ? r - 1 : 0);
  return r ? before : T();
}
template <class G, class T> static __device__ inline T inclusive_scan(const G &g, T v) {
  return inclusive_scan(g, v, plus<T>());
}
template <class G, class T> static __device__ inline T exclusive_scan(const G &g, T v) {
  return exclusive_scan(g, v, plus<T>());
}
#endif
}
#endif

/* cooperative_groups/memcpy_async.h: cg::memcpy_async, cg::wait and
 * cg::wait_prior (our own header). A GPU copies asynchronously and a
 * group's data is there once wait (or wait_prior) returns; here each
 * thread makes its share of the copy when memcpy_async is called (word by
 * word where both ends and the size allow, as <cuda/pipeline>'s), so only
 * the other threads' shares may be missing: wait and wait_prior<N> are the
 * group's barrier (as on a GPU, where they also synchronize the group).
 *  - memcpy_async(group, dst, src, bytes): `bytes` a size or a
 *    cuda::aligned_size_t<N>;
 *  - memcpy_async(group, dst, dst_count, src, src_count): min(dst_count,
 *    src_count) elements of dst's type. */
#ifndef CUCC_CG_MEMCPY_ASYNC_H
#define CUCC_CG_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#include <cuda/pipeline>

namespace cooperative_groups {
#if defined(__CUCC_PARSE__)
template <class Group, class T, class Size>
__device__ inline void memcpy_async(const Group &g, T *dst, const T *src, const Size &bytes) {
  cuda::cucc_::copy(dst, src, (size_t)bytes, g.thread_rank(), g.size());
}
template <class Group, class T, class DstLayout, class SrcLayout>
__device__ inline void memcpy_async(const Group &g, T *dst, const DstLayout &dn, const T *src, const SrcLayout &sn) {
  size_t n = (size_t)dn < (size_t)sn ? (size_t)dn : (size_t)sn;
  cuda::cucc_::copy(dst, src, n * sizeof(T), g.thread_rank(), g.size());
}
template <class Group> __device__ inline void wait(const Group &g) { g.sync(); }
template <unsigned NumStages, class Group> __device__ inline void wait_prior(const Group &g) { g.sync(); }
#endif
}  // namespace cooperative_groups
#endif

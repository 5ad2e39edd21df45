/* thrust/system/cuda/detail/core/util.h (cucc): what CUB's merge-sort and
 * adjacent-difference agents name of Thrust's CUDA core, in place of
 * Thrust's header, which belongs to its CUDA system (cucc's device system
 * is a CPU one, and Thrust's header clashes with its policies). The agents
 * are read, never compiled: cucc runs those algorithms' dispatch nowhere
 * (thrust/system/cuda/detail/core/triple_chevron_launch.h). The iterator
 * is the one given, as Thrust's gives it for all but contiguous ones. */
#pragma once

#include <thrust/detail/config.h>
/* (what Thrust's includes of CUB, which CUB's headers that include this one
 * count on: cub/device/device_adjacent_difference.cuh names cub::Difference) */
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_scan.cuh>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub {
namespace core {

template <class PtxPlan, class It> struct LoadIterator { typedef It type; };

template <class PtxPlan, class It>
__host__ __device__ __forceinline__ typename LoadIterator<PtxPlan, It>::type make_load_iterator(PtxPlan const &, It it) {
  return it;
}

}  // namespace core
}  // namespace cuda_cub
THRUST_NAMESPACE_END

/* thrust/system/cuda/detail/core/triple_chevron_launch.h (cucc): the
 * launcher with which CUB's device-wide algorithms (cub/device/dispatch/)
 * start their kernels, in place of Thrust's. Thrust's belongs to its CUDA
 * system, which cucc replaces by a CPU one (thrust/detail/config/
 * compiler.h), and its header clashes with that one's policies. cucc runs
 * cub::Device* on Thrust's CPU device system instead of CUB's kernels
 * (cub/device/cucc_device.cuh; docs/libraries.md says why), so CUB's
 * dispatch headers are only read, and this launcher is never used: an
 * algorithm that would launch through it (one cucc does not provide, or a
 * dispatch given a tuning policy of its own) is refused where it is
 * instantiated, with its name. */
#pragma once

#include <thrust/detail/config.h>
#include <cuda_runtime_api.h>
#include <cstddef>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub {
namespace launcher {

template <class K> struct cucc_no_kernels { enum { value = false }; };

struct triple_chevron {
  typedef std::size_t Size;
  dim3 const grid;
  dim3 const block;
  Size const shared_mem;
  cudaStream_t const stream;

  __host__ __device__ triple_chevron(dim3 grid_, dim3 block_, Size shared_mem_ = 0, cudaStream_t stream_ = 0)
      : grid(grid_), block(block_), shared_mem(shared_mem_), stream(stream_) {}

  template <class K, class... Args> __host__ __device__ cudaError_t doit(K, Args const &...) const {
    static_assert(cucc_no_kernels<K>::value,
                  "cucc: this CUB device-wide algorithm (or a CUB dispatch with a tuning policy of its own) "
                  "launches CUB's kernels, which cucc does not run; cucc provides cub::DeviceReduce, DeviceScan, "
                  "DeviceRadixSort, DeviceMergeSort, DeviceSelect, DevicePartition, DeviceHistogram, "
                  "DeviceSegmentedReduce, DeviceSegmentedRadixSort and DeviceRunLengthEncode::Encode "
                  "(docs/compatibility.md, CUB)");
    return cudaErrorNotSupported;
  }
};

}  // namespace launcher
}  // namespace cuda_cub
THRUST_NAMESPACE_END

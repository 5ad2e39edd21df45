/* thrust/system/cuda/vector.h (cucc): thrust::cuda::vector and
 * universal_vector, in place of those of Thrust's CUDA system: vectors in
 * the device system's memory (thrust/system/cuda/memory.h). */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/system/cuda/memory.h>
#include <thrust/detail/vector_base.h>
#include <vector>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub {
template <typename T, typename Allocator = thrust::system::cuda::allocator<T>>
using vector = thrust::detail::vector_base<T, Allocator>;
template <typename T, typename Allocator = thrust::system::cuda::universal_allocator<T>>
using universal_vector = thrust::detail::vector_base<T, Allocator>;
}  // namespace cuda_cub

namespace system { namespace cuda {
using thrust::cuda_cub::universal_vector;
using thrust::cuda_cub::vector;
}}  // namespace system::cuda

namespace cuda {
using thrust::cuda_cub::universal_vector;
using thrust::cuda_cub::vector;
}  // namespace cuda
THRUST_NAMESPACE_END

/* thrust/system/cuda/pointer.h (cucc): thrust::cuda::pointer,
 * universal_pointer and reference, on cucc's device system (its tag is
 * thrust::cuda::tag: thrust/system/cuda/execution_policy.h), in place of
 * those of Thrust's CUDA system. */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/detail/pointer.h>
#include <thrust/detail/reference.h>
#include <type_traits>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub {
template <typename T> using reference = thrust::tagged_reference<T, thrust::cuda_cub::tag>;
template <typename T> using pointer = thrust::pointer<T, thrust::cuda_cub::tag, thrust::tagged_reference<T, thrust::cuda_cub::tag>>;
template <typename T>
using universal_pointer = thrust::pointer<T, thrust::cuda_cub::tag, typename std::add_lvalue_reference<T>::type>;
}  // namespace cuda_cub

namespace system { namespace cuda {
using thrust::cuda_cub::pointer;
using thrust::cuda_cub::reference;
using thrust::cuda_cub::universal_pointer;
}}  // namespace system::cuda

namespace cuda {
using thrust::cuda_cub::pointer;
using thrust::cuda_cub::reference;
using thrust::cuda_cub::universal_pointer;
}  // namespace cuda
THRUST_NAMESPACE_END

/* thrust/system/cuda/memory.h (cucc): thrust::cuda::malloc, free,
 * allocator and universal_allocator, in place of those of Thrust's CUDA
 * system: the device system's memory (managed: Thrust's CPU algorithms
 * write it). */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/system/cuda/pointer.h>
#include <thrust/system/cuda/memory_resource.h>
#include <thrust/mr/allocator.h>
#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub {
inline pointer<void> malloc(std::size_t n) {
  void *p = nullptr;
  if (cudaMallocManaged(&p, n ? n : 1) != cudaSuccess) {
    (void)cudaGetLastError();
    p = nullptr;
  }
  return pointer<void>(p);
}
template <typename T> inline pointer<T> malloc(std::size_t n) {
  return pointer<T>(static_cast<T *>(cuda_cub::malloc(n * sizeof(T)).get()));
}
inline void free(pointer<void> ptr) { (void)cudaFree(ptr.get()); }

template <typename T> using allocator = thrust::mr::stateless_resource_allocator<T, thrust::system::cuda::memory_resource>;
template <typename T>
using universal_allocator = thrust::mr::stateless_resource_allocator<T, thrust::system::cuda::universal_memory_resource>;
}  // namespace cuda_cub

namespace system { namespace cuda {
using thrust::cuda_cub::allocator;
using thrust::cuda_cub::free;
using thrust::cuda_cub::malloc;
using thrust::cuda_cub::universal_allocator;
}}  // namespace system::cuda

namespace cuda {
using thrust::cuda_cub::allocator;
using thrust::cuda_cub::free;
using thrust::cuda_cub::malloc;
using thrust::cuda_cub::universal_allocator;
}  // namespace cuda
THRUST_NAMESPACE_END

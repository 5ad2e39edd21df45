/* thrust/system/cuda/memory_resource.h (cucc): thrust::cuda's memory
 * resources, in place of those of Thrust's CUDA system: the device
 * system's (thrust/system/omp/memory_resource.h: managed memory, which
 * Thrust's CPU algorithms may write), and cuda_memory_resource<Alloc,
 * Dealloc, Pointer> over any of the runtime's allocation functions, as
 * Thrust's CUDA system has it. */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cuda/pointer.h>
#include <thrust/system/detail/bad_alloc.h>
#include <thrust/detail/type_traits/pointer_traits.h>
#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN
namespace system { namespace cuda {
namespace detail {
typedef cudaError_t (*allocation_fn)(void **, std::size_t);
typedef cudaError_t (*deallocation_fn)(void *);

template <allocation_fn Alloc, deallocation_fn Dealloc, typename Pointer>
class cuda_memory_resource final : public mr::memory_resource<Pointer> {
public:
  Pointer do_allocate(std::size_t bytes, std::size_t alignment = THRUST_MR_DEFAULT_ALIGNMENT) override {
    (void)alignment;
    void *ret;
    cudaError_t status = Alloc(&ret, bytes);
    if (status != cudaSuccess) {
      (void)cudaGetLastError();
      throw thrust::system::detail::bad_alloc(cudaGetErrorString(status));
    }
    return Pointer(ret);
  }
  void do_deallocate(Pointer p, std::size_t, std::size_t) override {
    (void)Dealloc(thrust::detail::pointer_traits<Pointer>::get(p));
  }
};

inline cudaError_t cudaMallocManaged(void **ptr, std::size_t bytes) {
  return ::cudaMallocManaged(ptr, bytes, cudaMemAttachGlobal);
}

typedef cuda_memory_resource<cudaMallocManaged, cudaFree, thrust::cuda::pointer<void>> device_memory_resource;
typedef cuda_memory_resource<cudaMallocManaged, cudaFree, thrust::cuda::universal_pointer<void>> managed_memory_resource;
typedef cuda_memory_resource<cudaMallocHost, cudaFreeHost, thrust::cuda::universal_pointer<void>> pinned_memory_resource;
}  // namespace detail

typedef detail::device_memory_resource memory_resource;
typedef detail::managed_memory_resource universal_memory_resource;
typedef detail::pinned_memory_resource universal_host_pinned_memory_resource;
}}  // namespace system::cuda

namespace cuda {
using thrust::system::cuda::memory_resource;
using thrust::system::cuda::universal_host_pinned_memory_resource;
using thrust::system::cuda::universal_memory_resource;
}  // namespace cuda
THRUST_NAMESPACE_END

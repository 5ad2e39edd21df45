/* thrust/system/omp/memory_resource.h (cucc): OpenMP's memory resource
 * (device_vector's storage when OpenMP is the device system), in place of
 * Thrust's, which is operator new's: device memory from the CUDA runtime,
 * so that kernels may be handed it (raw_pointer_cast(v.data())), the
 * runtime's calls take it for the device memory it is on a GPU
 * (cudaMemcpy, cudaPointerGetAttributes), and cucc --check knows its
 * bounds. Managed memory (cudaMallocManaged): Thrust's algorithms write it
 * from the host, which memory of cudaMalloc's does not allow (--check's
 * initcheck would take what they wrote for never written). */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/system/omp/pointer.h>
#include <cuda_runtime_api.h>
#include <new>

THRUST_NAMESPACE_BEGIN
namespace system { namespace omp {
namespace detail {
class cucc_managed_resource final : public thrust::mr::memory_resource<> {
public:
  void *do_allocate(std::size_t bytes, std::size_t alignment) override {
    void *p = nullptr;
    /* (the runtime aligns every allocation to 256 bytes) */
    if (alignment > 256 || cudaMallocManaged(&p, bytes ? bytes : 1) != cudaSuccess) {
      (void)cudaGetLastError();
      throw std::bad_alloc();
    }
    return p;
  }
  void do_deallocate(void *p, std::size_t, std::size_t) override { (void)cudaFree(p); }
};

typedef thrust::mr::fancy_pointer_resource<cucc_managed_resource, thrust::omp::pointer<void>> native_resource;
typedef thrust::mr::fancy_pointer_resource<cucc_managed_resource, thrust::omp::universal_pointer<void>>
    universal_native_resource;
}  // namespace detail

typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::native_resource universal_host_pinned_memory_resource;
}}  // namespace system::omp
THRUST_NAMESPACE_END

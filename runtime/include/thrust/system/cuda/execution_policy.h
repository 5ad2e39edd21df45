/* thrust/system/cuda/execution_policy.h (cucc): thrust::cuda's execution
 * policies on cucc's device system, a CPU one (OpenMP's by default:
 * thrust/detail/config/device_system.h), in place of Thrust's CUDA system,
 * which is CUB's kernels. A program spells them as for a GPU:
 *
 *   thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end());
 *
 * and the algorithm runs on the device system's threads. What it must keep
 * from CUDA is the order: on a GPU it runs after the work issued before it
 * to its stream (to the default stream: after the work of every blocking
 * stream), so here it first waits for that work (cudaStreamSynchronize
 * of its stream), then runs; work issued after it is ordered after it
 * since it has finished when its call returns, as Thrust's CUDA system
 * also synchronizes (par_nosync may return earlier on a GPU: finishing is
 * one of its schedules). thrust::device and algorithms on device_vector's
 * iterators wait alike for the default stream. The waits sit in Thrust's
 * dispatch: every algorithm turns its policy into the derived one through
 * thrust::detail::strip_const, specialized below for these policies (some
 * 30 waits in a sort, all but the first with nothing to wait for). Not in
 * derived_cast, which every element read of a device_reference calls: a
 * sort would wait 10^8 times (3x its time); so v[i] alone is not ordered
 * after another stream's kernel, as its cudaMemcpy would be on a GPU:
 * synchronize first. The device system's allocations (device_vector,
 * device_malloc, temporary storage) are cudaMallocManaged memory, so
 * kernels may be handed them (raw_pointer_cast) and cucc --check knows
 * them (thrust/system/omp/memory_resource.h). */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/detail/execution_policy.h>
#include <thrust/iterator/detail/device_system_tag.h>
#define CUCC_THRUST_PAR_H <__THRUST_DEVICE_SYSTEM_ROOT/detail/par.h>
#include CUCC_THRUST_PAR_H
#undef CUCC_THRUST_PAR_H
#include <thrust/detail/allocator_aware_execution_policy.h>
#include <cuda_runtime_api.h>
#include <cstddef>
#include <new>

THRUST_NAMESPACE_BEGIN
namespace cuda_cub {

namespace cucc_ {
namespace dev = thrust::system::__THRUST_DEVICE_SYSTEM_NAMESPACE;

/* Waits for the work issued so far to s. An error it finds (a failed
 * launch) stays for cudaGetLastError and the next synchronization to
 * report: Thrust's dispatch runs in destructors too, which must not throw. */
inline void wait(cudaStream_t s) { (void)cudaStreamSynchronize(s); }
}  // namespace cucc_

inline cudaStream_t default_stream() {
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  return cudaStreamPerThread;
#else
  return cudaStreamLegacy;
#endif
}

using tag = cucc_::dev::tag;

template <class Derived> struct execution_policy : cucc_::dev::execution_policy<Derived> {};

template <class Derived> struct execute_on_stream_base : execution_policy<Derived> {
  cudaStream_t stream_;

  __host__ __device__ execute_on_stream_base(cudaStream_t s = default_stream()) : stream_(s) {}

  /* (a policy made here and used at once waits here too: with an
   * allocator, par(alloc).on(s), only here) */
  __host__ Derived on(cudaStream_t const &s) const {
    Derived r = static_cast<const Derived &>(*this);
    r.stream_ = s;
    cucc_::wait(s);
    return r;
  }

  friend __host__ __device__ cudaStream_t get_stream(const execute_on_stream_base &e) { return e.stream_; }
};

struct execute_on_stream : execute_on_stream_base<execute_on_stream> {
  __host__ __device__ execute_on_stream() {}
  __host__ __device__ execute_on_stream(cudaStream_t s) : execute_on_stream_base<execute_on_stream>(s) {}
};

struct execute_on_stream_nosync : execute_on_stream_base<execute_on_stream_nosync> {
  __host__ __device__ execute_on_stream_nosync() {}
  __host__ __device__ execute_on_stream_nosync(cudaStream_t s) : execute_on_stream_base<execute_on_stream_nosync>(s) {}
};

struct par_t : execution_policy<par_t>, thrust::detail::allocator_aware_execution_policy<execute_on_stream_base> {
  typedef execute_on_stream stream_attachment_type;
  __host__ __device__ constexpr par_t() {}
  __host__ execute_on_stream on(cudaStream_t const &s) const {
    cucc_::wait(s);
    return execute_on_stream(s);
  }
};

struct par_nosync_t : execution_policy<par_nosync_t>,
                      thrust::detail::allocator_aware_execution_policy<execute_on_stream_base> {
  typedef execute_on_stream_nosync stream_attachment_type;
  __host__ __device__ constexpr par_nosync_t() {}
  __host__ execute_on_stream_nosync on(cudaStream_t const &s) const {
    cucc_::wait(s);
    return execute_on_stream_nosync(s);
  }
};

THRUST_INLINE_CONSTANT par_t par;
THRUST_INLINE_CONSTANT par_nosync_t par_nosync;

template <class D> __host__ __device__ inline cudaStream_t stream(const execution_policy<D> &) { return default_stream(); }
}  // namespace cuda_cub

namespace system { namespace cuda {
using thrust::cuda_cub::execution_policy;
using thrust::cuda_cub::par;
using thrust::cuda_cub::par_nosync;
using thrust::cuda_cub::tag;
namespace detail {
using thrust::cuda_cub::execute_on_stream;
using thrust::cuda_cub::execute_on_stream_nosync;
using thrust::cuda_cub::par_nosync_t;
using thrust::cuda_cub::par_t;
}  // namespace detail
}}  // namespace system::cuda

namespace cuda {
using thrust::cuda_cub::execution_policy;
using thrust::cuda_cub::par;
using thrust::cuda_cub::par_nosync;
using thrust::cuda_cub::tag;
}  // namespace cuda

/* The waits, in Thrust's dispatch (see the top). Explicit specializations:
 * found through the templates Thrust's algorithms call, wherever these
 * are declared, as long as it is before the program's first use. */
namespace detail {
#define CUCC_THRUST_WAIT(P, s)                                                                    \
  template <> __host__ __device__ inline execution_policy_base<P> &strip_const<P>(const execution_policy_base<P> &x) { \
    cuda_cub::cucc_::wait(s);                                                                     \
    return const_cast<execution_policy_base<P> &>(x);                                             \
  }
CUCC_THRUST_WAIT(cuda_cub::cucc_::dev::tag, cuda_cub::default_stream())
CUCC_THRUST_WAIT(cuda_cub::cucc_::dev::detail::par_t, cuda_cub::default_stream())
CUCC_THRUST_WAIT(cuda_cub::par_t, cuda_cub::default_stream())
CUCC_THRUST_WAIT(cuda_cub::par_nosync_t, cuda_cub::default_stream())
CUCC_THRUST_WAIT(cuda_cub::execute_on_stream, static_cast<const cuda_cub::execute_on_stream &>(x).stream_)
CUCC_THRUST_WAIT(cuda_cub::execute_on_stream_nosync, static_cast<const cuda_cub::execute_on_stream_nosync &>(x).stream_)
#undef CUCC_THRUST_WAIT

}  // namespace detail

#if THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CPP   /* (CPP's is also the host's) */
/* The device system's malloc and free (thrust::device_malloc, temporary
 * storage), more specialized than the sequential ones it inherits: device
 * memory, as the memory resource's (thrust/system/omp/memory_resource.h). */
namespace system { namespace __THRUST_DEVICE_SYSTEM_NAMESPACE { namespace detail {
template <typename DerivedPolicy> inline void *malloc(execution_policy<DerivedPolicy> &, std::size_t n) {
  void *p = nullptr;
  if (cudaMallocManaged(&p, n ? n : 1) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
}

template <typename T> inline void *cucc_raw(T *p) { return (void *)p; }
template <typename P> inline void *cucc_raw(const P &p) { return (void *)p.get(); }

template <typename DerivedPolicy, typename Pointer> inline void free(execution_policy<DerivedPolicy> &, Pointer ptr) {
  (void)cudaFree(cucc_raw(ptr));
}
}}}  // namespace system::<device system>::detail
#endif
THRUST_NAMESPACE_END

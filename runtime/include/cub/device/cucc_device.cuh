/* cub/device/cucc_device.cuh (cucc): how cucc runs CUB's device-wide
 * algorithms (cub::DeviceReduce, DeviceScan, DeviceRadixSort,
 * DeviceMergeSort, DeviceSelect, DevicePartition, DeviceHistogram,
 * DeviceSegmentedReduce, DeviceSegmentedRadixSort,
 * DeviceRunLengthEncode::Encode).
 *
 * CUB's own dispatch launches CUB's kernels through Thrust's CUDA launcher.
 * cucc runs them on Thrust's CPU device system instead (OpenMP's: every
 * core), as it runs Thrust's own device algorithms; docs/libraries.md says
 * why. The public headers are Debian's CUB, unmodified (cub::DeviceReduce
 * and the others: their signatures, types, initial values and iterators);
 * what stands in for CUB is the dispatch they call, DispatchReduce<...>::
 * Dispatch and its siblings, given as partial specializations for CUB's
 * default tuning policies (cub/device/cucc/), which call what is here.
 * Three are cucc's whole: the radix sorts' dispatch (Debian's has
 * <<<...>>> launches in host code), cub::DeviceSegmentedRadixSort (Debian's
 * includes that dispatch by a relative path) and cub::DeviceHistogram (its
 * dispatch has no policy parameter to specialize). The functors run on the
 * host, a __device__ operator() too (as with Thrust's algorithms:
 * docs/libraries.md).
 *
 * What is kept of CUB:
 *  - the two-call protocol: with d_temp_storage NULL, temp_storage_bytes is
 *    set and nothing runs; the second call with storage of that size (or
 *    more: less is cudaErrorInvalidValue, as CUB's) does the work. The
 *    algorithms need no device storage of their own, so the size is small
 *    and fixed (TEMP_STORAGE_BYTES);
 *  - the stream: the work is issued to the stream given, as a host function
 *    (cudaLaunchHostFunc), so it runs after the work issued to that stream
 *    before it, and the work issued after waits for it, and the call returns
 *    at once. In a stream that captures, it becomes a graph's host node. The
 *    function owns copies of the arguments (iterators, functors, sizes), as a
 *    kernel's parameters are copies; it reads the inputs when it runs;
 *  - errors as cudaError_t: what issuing the work returns (an invalid
 *    stream), else cudaPeekAtLastError(), which CUB 1.17 returns after each
 *    of its launches; with debug_synchronous the stream is then
 *    synchronized and its error returned (CUB also prints each launch,
 *    which there is none of here).
 * Thrust's temporary buffers come from the host's heap (HostAllocator), not
 * from cudaMalloc: a stream's host function must not make CUDA calls (here
 * cudaFree, which waits for every stream, would wait for its own). */
#pragma once
#pragma GCC system_header

#include <cub/config.cuh>
#include <cub/util_type.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/iterator/arg_index_input_iterator.cuh>

#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/iterator_facade.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

CUB_NAMESPACE_BEGIN
namespace cucc {

enum { TEMP_STORAGE_BYTES = 256 };

/* Thrust's temporary buffers: the host's heap */
struct HostAllocator {
  typedef char value_type;
  char *allocate(std::ptrdiff_t n) {
    void *p = std::malloc(n > 0 ? (std::size_t)n : 1);
    if (!p) throw std::bad_alloc();
    return static_cast<char *>(p);
  }
  void deallocate(char *p, std::size_t) { std::free(p); }
};

/* the device system's parallel policy (OpenMP's, or C++'s where the host
 * compiler has no OpenMP) with those buffers */
inline auto policy() -> decltype(THRUST_NS_QUALIFIER::system::__THRUST_DEVICE_SYSTEM_NAMESPACE::par(HostAllocator())) {
  return THRUST_NS_QUALIFIER::system::__THRUST_DEVICE_SYSTEM_NAMESPACE::par(HostAllocator());
}

template <class F> struct Job {
  F f;
  static void CUDART_CB run(void *p) {
    std::unique_ptr<Job> j(static_cast<Job *>(p));
    j->f();
  }
};

/* The two-call protocol, then f issued to the stream (see the top). */
template <class F>
__host__ cudaError_t run(void *d_temp_storage, std::size_t &temp_storage_bytes, cudaStream_t stream,
                         bool debug_synchronous, F f) {
  if (!d_temp_storage) {
    temp_storage_bytes = TEMP_STORAGE_BYTES;
    return cudaSuccess;
  }
  if (temp_storage_bytes < TEMP_STORAGE_BYTES) return cudaErrorInvalidValue;
  Job<F> *j = new Job<F>{std::move(f)};
  cudaError_t e = cudaLaunchHostFunc(stream, &Job<F>::run, j);
  if (e != cudaSuccess) {
    delete j;
    return e;
  }
  e = cudaPeekAtLastError();
  if (e == cudaSuccess && debug_synchronous) e = cudaStreamSynchronize(stream);
  return e;
}

/* Any of CUB's iterators (their operators are not all const, as Thrust
 * needs them) seen by Thrust as a random-access iterator: the iterator and
 * an index; pointers are used as they are. */
template <class It> struct IdxRef { typedef decltype(std::declval<It &>()[std::ptrdiff_t(0)]) type; };
template <class It>
using IdxValue = typename std::remove_cv<typename std::remove_reference<typename IdxRef<It>::type>::type>::type;

template <class It>
class Idx : public THRUST_NS_QUALIFIER::iterator_facade<Idx<It>, IdxValue<It>, THRUST_NS_QUALIFIER::any_system_tag,
                                                        THRUST_NS_QUALIFIER::random_access_traversal_tag,
                                                        typename IdxRef<It>::type, std::ptrdiff_t> {
public:
  __host__ __device__ Idx() : i_(0) {}
  __host__ __device__ explicit Idx(It b, std::ptrdiff_t i = 0) : base_(b), i_(i) {}

private:
  friend class THRUST_NS_QUALIFIER::iterator_core_access;
  __host__ __device__ typename IdxRef<It>::type dereference() const { return base_[i_]; }
  __host__ __device__ bool equal(const Idx &o) const { return i_ == o.i_; }
  __host__ __device__ void increment() { ++i_; }
  __host__ __device__ void decrement() { --i_; }
  __host__ __device__ void advance(std::ptrdiff_t n) { i_ += n; }
  __host__ __device__ std::ptrdiff_t distance_to(const Idx &o) const { return o.i_ - i_; }
  mutable It base_;
  std::ptrdiff_t i_;
};

template <class T> __host__ __device__ T *wrap(T *p) { return p; }
template <class It> __host__ __device__ Idx<It> wrap(It it) { return Idx<It>(it); }

/* x converted to T (an input read as the accumulator's type, as CUB's
 * agents load items into it) */
template <class T> struct CastTo {
  template <class X> __host__ __device__ T operator()(const X &x) const { return T(x); }
};

template <class T, class It> __host__ __device__ auto read_as(It it)
    -> THRUST_NS_QUALIFIER::transform_iterator<CastTo<T>, decltype(wrap(it)), T> {
  return THRUST_NS_QUALIFIER::transform_iterator<CastTo<T>, decltype(wrap(it)), T>(wrap(it), CastTo<T>());
}

/* CUB's reduction: the aggregate of the n > 0 items of in, accumulated in
 * OutputT, then reduction_op(init, aggregate) (CUB's single-tile kernel) */
template <class OutputT, class It, class Off, class Op>
__host__ __device__ OutputT aggregate(It in, Off n, Op op) {
  return THRUST_NS_QUALIFIER::reduce(policy(), read_as<OutputT>(in) + 1, read_as<OutputT>(in) + n, OutputT(in[0]), op);
}

template <class OutputT, class It, class Off, class Op>
__host__ __device__ OutputT aggregate_seq(It in, Off n, Op op) {
  return THRUST_NS_QUALIFIER::reduce(THRUST_NS_QUALIFIER::seq, read_as<OutputT>(in) + 1, read_as<OutputT>(in) + n,
                                     OutputT(in[0]), op);
}

/* CUB's NormalizeReductionOutput: an arg-min/max's offset within its
 * segment */
template <class T, class Off, class It> __host__ __device__ void normalize(T &, Off, It) {}
template <class KV, class Off, class W, class O2, class V>
__host__ __device__ void normalize(KV &v, Off base, ArgIndexInputIterator<W, O2, V>) {
  v.key -= base;
}

/* The radix sorts' order: keys compared by bits [begin_bit, end_bit) of
 * their twiddled (and for a descending sort, complemented) representation,
 * -0.0 as +0.0, as CUB's digit extractors read them; the sorts are stable. */
template <bool IS_DESCENDING, class KeyT> struct RadixLess {
  typedef typename Traits<KeyT>::UnsignedBits UnsignedBits;
  int begin_bit, end_bit;
  __host__ __device__ UnsignedBits bits(const KeyT &k) const {
    UnsignedBits u;
    std::memcpy(&u, &k, sizeof u);
    u = Traits<KeyT>::TwiddleIn(u);
    if (IS_DESCENDING) u = ~u;
    if (Traits<KeyT>::CATEGORY == FLOATING_POINT) {
      UnsignedBits minus0 = Traits<KeyT>::TwiddleIn(UnsignedBits(UnsignedBits(1) << (8 * sizeof(UnsignedBits) - 1)));
      if (u == minus0) u = Traits<KeyT>::TwiddleIn(UnsignedBits(0));
    }
    int n = end_bit - begin_bit;
    if (n <= 0) return 0;
    u = UnsignedBits(u >> begin_bit);
    if (n < int(8 * sizeof(UnsignedBits))) u = UnsignedBits(u & UnsignedBits((UnsignedBits(1) << n) - 1));
    return u;
  }
  __host__ __device__ bool operator()(const KeyT &a, const KeyT &b) const { return bits(a) < bits(b); }
};

/* Integer keys sorted on all their bits: the same order as Thrust's
 * thrust::less or thrust::greater, with which Thrust's CPU systems sort
 * stably by radix too (much faster than a comparison sort) */
template <bool IS_DESCENDING, class KeyT> struct WholeKeys {
  typedef typename std::conditional<IS_DESCENDING, THRUST_NS_QUALIFIER::greater<KeyT>, THRUST_NS_QUALIFIER::less<KeyT>>::type
      Compare;
  static bool whole(int begin_bit, int end_bit) {
    return std::is_integral<KeyT>::value && !std::is_same<KeyT, bool>::value && begin_bit <= 0 &&
           end_bit >= int(8 * sizeof(KeyT));
  }
};

/* keys (and values) sorted in place, stably, with policy p */
template <bool IS_DESCENDING, class P, class KeyT, class Off>
void radix_sort(const P &p, KeyT *keys, NullType *, Off n, int begin_bit, int end_bit) {
  typedef WholeKeys<IS_DESCENDING, KeyT> W;
  if (W::whole(begin_bit, end_bit)) THRUST_NS_QUALIFIER::stable_sort(p, keys, keys + n, typename W::Compare());
  else THRUST_NS_QUALIFIER::stable_sort(p, keys, keys + n, RadixLess<IS_DESCENDING, KeyT>{begin_bit, end_bit});
}
template <bool IS_DESCENDING, class P, class KeyT, class ValueT, class Off>
void radix_sort(const P &p, KeyT *keys, ValueT *values, Off n, int begin_bit, int end_bit) {
  typedef WholeKeys<IS_DESCENDING, KeyT> W;
  if (W::whole(begin_bit, end_bit))
    THRUST_NS_QUALIFIER::stable_sort_by_key(p, keys, keys + n, values, typename W::Compare());
  else
    THRUST_NS_QUALIFIER::stable_sort_by_key(p, keys, keys + n, values, RadixLess<IS_DESCENDING, KeyT>{begin_bit, end_bit});
}

}  // namespace cucc
CUB_NAMESPACE_END

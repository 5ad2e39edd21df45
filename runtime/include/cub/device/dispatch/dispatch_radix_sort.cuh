/* cub/device/dispatch/dispatch_radix_sort.cuh (cucc): CUB's radix-sort
 * dispatch, in place of Debian's (which launches CUB's kernels, some with
 * <<<...>>> in its host code, which no host compiler reads): the same class
 * templates, DispatchRadixSort and DispatchSegmentedRadixSort, with the same
 * Dispatch, on Thrust's CPU device system (cub/device/cucc_device.cuh).
 * Debian's cub/device/device_radix_sort.cuh includes this by its full name
 * and is used as it is; cub/device/device_segmented_radix_sort.cuh is
 * cucc's.
 *
 * As CUB's: keys are ordered by bits [begin_bit, end_bit) of their
 * twiddled representation (-0.0 as +0.0), descending ones by the
 * complement; the sort is stable; with is_overwrite_okay false the input
 * stays as it is and the result is in the alternate buffers (d_keys_out);
 * with it true the result is in d_keys.Current() (here the selector does
 * not change: the sort is in place); an empty problem needs 1 byte and does
 * nothing. A segmented sort sorts each segment [d_begin_offsets[i],
 * d_end_offsets[i]) (an empty one when end <= begin); items outside every
 * segment are not written. */
#pragma once
#pragma GCC system_header

#include <cub/config.cuh>
#include <cub/util_type.cuh>
#include <cub/device/cucc_device.cuh>

CUB_NAMESPACE_BEGIN

/* (named as Debian's default policy; the sorts have no tuning) */
template <typename KeyT, typename ValueT, typename OffsetT> struct DeviceRadixSortPolicy {};

namespace cucc {
template <class P, class T, class Off> void copy_n(const P &p, T *from, T *to, Off n) {
  if (from != to && n > 0) THRUST_NS_QUALIFIER::copy(p, from, from + n, to);
}
template <class P, class Off> void copy_n(const P &, NullType *, NullType *, Off) {}
template <class T, class Off> __host__ __device__ T *offset(T *p, Off i) { return p + i; }
template <class Off> __host__ __device__ NullType *offset(NullType *p, Off) { return p; }
}  // namespace cucc

template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename OffsetT,
          typename SelectedPolicy = DeviceRadixSortPolicy<KeyT, ValueT, OffsetT>>
struct DispatchRadixSort {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, size_t &temp_storage_bytes, DoubleBuffer<KeyT> &d_keys, DoubleBuffer<ValueT> &d_values,
           OffsetT num_items, int begin_bit, int end_bit, bool is_overwrite_okay, cudaStream_t stream,
           bool debug_synchronous) {
    if (num_items == 0) {
      if (!d_temp_storage) temp_storage_bytes = 1;
      return cudaSuccess;
    }
    KeyT *keys_in = d_keys.Current(), *keys = is_overwrite_okay ? keys_in : d_keys.Alternate();
    ValueT *values_in = d_values.Current(), *values = is_overwrite_okay ? values_in : d_values.Alternate();
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      cucc::copy_n(cucc::policy(), keys_in, keys, num_items);
      cucc::copy_n(cucc::policy(), values_in, values, num_items);
      cucc::radix_sort<IS_DESCENDING>(cucc::policy(), keys, values, num_items, begin_bit, end_bit);
    });
  }
};

template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename OffsetT,
          typename SelectedPolicy = DeviceRadixSortPolicy<KeyT, ValueT, OffsetT>>
struct DispatchSegmentedRadixSort {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, size_t &temp_storage_bytes, DoubleBuffer<KeyT> &d_keys, DoubleBuffer<ValueT> &d_values,
           int num_items, int num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
           int begin_bit, int end_bit, bool is_overwrite_okay, cudaStream_t stream, bool debug_synchronous) {
    if (num_items == 0) {
      if (!d_temp_storage) temp_storage_bytes = 1;
      return cudaSuccess;
    }
    KeyT *keys_in = d_keys.Current(), *keys = is_overwrite_okay ? keys_in : d_keys.Alternate();
    ValueT *values_in = d_values.Current(), *values = is_overwrite_okay ? values_in : d_values.Alternate();
    /* one segment per iteration, as CUB gives each a block */
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      THRUST_NS_QUALIFIER::for_each(
          cucc::policy(), THRUST_NS_QUALIFIER::counting_iterator<int>(0),
          THRUST_NS_QUALIFIER::counting_iterator<int>(num_segments > 0 ? num_segments : 0),
          [=] __host__ __device__(int i) mutable {
            OffsetT b = d_begin_offsets[i], e = d_end_offsets[i];
            if (e <= b) return;
            cucc::copy_n(THRUST_NS_QUALIFIER::seq, keys_in + b, keys + b, e - b);
            cucc::copy_n(THRUST_NS_QUALIFIER::seq, cucc::offset(values_in, b), cucc::offset(values, b), e - b);
            cucc::radix_sort<IS_DESCENDING>(THRUST_NS_QUALIFIER::seq, keys + b, cucc::offset(values, b), e - b,
                                            begin_bit, end_bit);
          });
    });
  }
};

CUB_NAMESPACE_END

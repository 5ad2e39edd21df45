/* cub/device/cucc/merge_sort.cuh (cucc): CUB's DispatchMergeSort for the
 * tuning policy cub::DeviceMergeSort uses, on Thrust's CPU device system
 * (cub/device/cucc_device.cuh). As CUB's: the input is copied to the output
 * (when they differ), which is sorted stably by compare_op, items with
 * their keys. */
#pragma once
#pragma GCC system_header

#include <cub/device/dispatch/dispatch_merge_sort.cuh>
#include <cub/device/cucc_device.cuh>

CUB_NAMESPACE_BEGIN
namespace cucc {
template <class In, class Out, class Off> void copy_to(In in, Out out, Off n) {
  THRUST_NS_QUALIFIER::copy(policy(), wrap(in), wrap(in) + n, wrap(out));
}
template <class T, class Off> void copy_to(T *in, T *out, Off n) {
  if (in != out) THRUST_NS_QUALIFIER::copy(policy(), in, in + n, out);
}
template <class In, class Off> void copy_to(In, NullType *, Off) {}
template <class Off> void copy_to(NullType *, NullType *, Off) {}

template <class K, class Off, class Cmp> void merge_sort(K keys, NullType *, Off n, Cmp cmp) {
  THRUST_NS_QUALIFIER::stable_sort(policy(), wrap(keys), wrap(keys) + n, cmp);
}
template <class K, class V, class Off, class Cmp> void merge_sort(K keys, V items, Off n, Cmp cmp) {
  THRUST_NS_QUALIFIER::stable_sort_by_key(policy(), wrap(keys), wrap(keys) + n, wrap(items), cmp);
}
}  // namespace cucc

template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
          typename OffsetT, typename CompareOpT, typename P0>
struct DispatchMergeSort<KeyInputIteratorT, ValueInputIteratorT, KeyIteratorT, ValueIteratorT, OffsetT, CompareOpT,
                         DeviceMergeSortPolicy<P0>> {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, std::size_t &temp_storage_bytes, KeyInputIteratorT d_input_keys,
           ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys, ValueIteratorT d_output_items,
           OffsetT num_items, CompareOpT compare_op, cudaStream_t stream, bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      OffsetT n = num_items > 0 ? num_items : 0;
      cucc::copy_to(d_input_keys, d_output_keys, n);
      cucc::copy_to(d_input_items, d_output_items, n);
      cucc::merge_sort(d_output_keys, d_output_items, n, compare_op);
    });
  }
};

CUB_NAMESPACE_END

/* cub/device/cucc/unique_by_key.cuh (cucc): CUB's DispatchUniqueByKey for
 * the tuning policy cub::DeviceSelect::UniqueByKey uses, on Thrust's CPU
 * device system (cub/device/cucc_device.cuh): the first key of each run of
 * keys equal to the one before, with its value. Included after Debian's
 * cub/device/device_select.cuh, which includes CUB's
 * dispatch_unique_by_key.cuh (a header without an include guard, which must
 * not be read twice). */
#pragma once
#pragma GCC system_header

#include <cub/device/cucc_device.cuh>

CUB_NAMESPACE_BEGIN

template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
          typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename EqualityOpT, typename OffsetT,
          typename P0>
struct DispatchUniqueByKey<KeyInputIteratorT, ValueInputIteratorT, KeyOutputIteratorT, ValueOutputIteratorT,
                           NumSelectedIteratorT, EqualityOpT, OffsetT, DeviceUniqueByKeyPolicy<P0>> {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, size_t &temp_storage_bytes, KeyInputIteratorT d_keys_in,
           ValueInputIteratorT d_values_in, KeyOutputIteratorT d_keys_out, ValueOutputIteratorT d_values_out,
           NumSelectedIteratorT d_num_selected_out, EqualityOpT equality_op, OffsetT num_items, cudaStream_t stream,
           bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      auto keys = cucc::wrap(d_keys_in);
      auto keys_out = cucc::wrap(d_keys_out);
      OffsetT n = num_items > 0 ? num_items : 0;
      auto ends = THRUST_NS_QUALIFIER::unique_by_key_copy(cucc::policy(), keys, keys + n, cucc::wrap(d_values_in),
                                                          keys_out, cucc::wrap(d_values_out), equality_op);
      *d_num_selected_out = OffsetT(ends.first - keys_out);
    });
  }
};

CUB_NAMESPACE_END

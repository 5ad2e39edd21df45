/* cub/device/cucc/scan.cuh (cucc): CUB's scan dispatch (DispatchScan,
 * DispatchScanByKey) for the tuning policies cub::DeviceScan uses, on
 * Thrust's CPU device system (cub/device/cucc_device.cuh). As CUB's:
 * the accumulator is the initial value's type, or the input's for an
 * inclusive scan (P0571); an exclusive scan's initial value (a
 * cub::FutureValue too) is read when the scan runs; d_out may be d_in. */
#pragma once
#pragma GCC system_header

#include <cub/device/dispatch/dispatch_scan.cuh>
#include <cub/device/dispatch/dispatch_scan_by_key.cuh>
#include <cub/device/cucc_device.cuh>

CUB_NAMESPACE_BEGIN
namespace cucc {
template <class AccumT, class In, class Out, class Op>
void scan(In d_in, Out d_out, Op op, NullType, int n) {
  THRUST_NS_QUALIFIER::inclusive_scan(policy(), read_as<AccumT>(d_in), read_as<AccumT>(d_in) + n, wrap(d_out), op);
}
template <class AccumT, class In, class Out, class Op, class InitValueT>
void scan(In d_in, Out d_out, Op op, InitValueT init_value, int n) {
  AccumT init = init_value;   /* (an InputValue: a value, or a FutureValue read now) */
  THRUST_NS_QUALIFIER::exclusive_scan(policy(), read_as<AccumT>(d_in), read_as<AccumT>(d_in) + n, wrap(d_out), init,
                                      op);
}
template <class AccumT, class K, class In, class Out, class Eq, class Op>
void scan_by_key(K d_keys, In d_in, Out d_out, Eq eq, Op op, NullType, int n) {
  THRUST_NS_QUALIFIER::inclusive_scan_by_key(policy(), wrap(d_keys), wrap(d_keys) + n, read_as<AccumT>(d_in),
                                             wrap(d_out), eq, op);
}
template <class AccumT, class K, class In, class Out, class Eq, class Op, class InitValueT>
void scan_by_key(K d_keys, In d_in, Out d_out, Eq eq, Op op, InitValueT init_value, int n) {
  THRUST_NS_QUALIFIER::exclusive_scan_by_key(policy(), wrap(d_keys), wrap(d_keys) + n, read_as<AccumT>(d_in),
                                             wrap(d_out), AccumT(init_value), eq, op);
}
}  // namespace cucc

template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT, typename OffsetT,
          typename OutputT>
struct DispatchScan<InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, OffsetT, DeviceScanPolicy<OutputT>> {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t Dispatch(void *d_temp_storage, size_t &temp_storage_bytes,
                                                                    InputIteratorT d_in, OutputIteratorT d_out,
                                                                    ScanOpT scan_op, InitValueT init_value,
                                                                    OffsetT num_items, cudaStream_t stream,
                                                                    bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      if (num_items > 0) cucc::scan<OutputT>(d_in, d_out, scan_op, init_value, int(num_items));
    });
  }
};

template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
          typename EqualityOp, typename ScanOpT, typename InitValueT, typename OffsetT, typename P0, typename P1,
          typename P2>
struct DispatchScanByKey<KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT, EqualityOp, ScanOpT,
                         InitValueT, OffsetT, DeviceScanByKeyPolicy<P0, P1, P2>> {
  using OutputT = cub::detail::conditional_t<std::is_same<InitValueT, NullType>::value,
                                             cub::detail::value_t<ValuesInputIteratorT>, InitValueT>;
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, size_t &temp_storage_bytes, KeysInputIteratorT d_keys_in,
           ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, EqualityOp equality_op,
           ScanOpT scan_op, InitValueT init_value, OffsetT num_items, cudaStream_t stream, bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      if (num_items > 0)
        cucc::scan_by_key<OutputT>(d_keys_in, d_values_in, d_values_out, equality_op, scan_op, init_value,
                                   int(num_items));
    });
  }
};

CUB_NAMESPACE_END

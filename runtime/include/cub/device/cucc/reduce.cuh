/* cub/device/cucc/reduce.cuh (cucc): CUB's reduction dispatch
 * (DispatchReduce, DispatchSegmentedReduce, DispatchReduceByKey) for the
 * tuning policies cub::DeviceReduce, DeviceSegmentedReduce and
 * DeviceRunLengthEncode::Encode use, on Thrust's CPU device system
 * (cub/device/cucc_device.cuh). CUB's results: an empty input or segment
 * gives init; otherwise reduction_op(init, aggregate), an arg-min/max's
 * offset counted from its segment's start. */
#pragma once
#pragma GCC system_header

#include <cub/device/dispatch/dispatch_reduce.cuh>
#include <cub/device/dispatch/dispatch_reduce_by_key.cuh>
#include <cub/device/cucc_device.cuh>

CUB_NAMESPACE_BEGIN

template <typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename ReductionOpT, typename OutputT,
          typename P0, typename P1, typename P2, typename P3>
struct DispatchReduce<InputIteratorT, OutputIteratorT, OffsetT, ReductionOpT, OutputT, DeviceReducePolicy<P0, P1, P2, P3>> {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t Dispatch(void *d_temp_storage, size_t &temp_storage_bytes,
                                                                    InputIteratorT d_in, OutputIteratorT d_out,
                                                                    OffsetT num_items, ReductionOpT reduction_op,
                                                                    OutputT init, cudaStream_t stream,
                                                                    bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous,
                     [=] __host__ __device__() mutable {
                       if (num_items <= 0) {
                         *d_out = init;
                         return;
                       }
                       OutputT agg = cucc::aggregate<OutputT>(d_in, num_items, reduction_op);
                       *d_out = reduction_op(init, agg);
                     });
  }
};

template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename OffsetT, typename ReductionOpT, typename OutputT, typename P0, typename P1, typename P2, typename P3>
struct DispatchSegmentedReduce<InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT, OffsetT,
                               ReductionOpT, OutputT, DeviceReducePolicy<P0, P1, P2, P3>> {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
           int num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
           ReductionOpT reduction_op, OutputT init, cudaStream_t stream, bool debug_synchronous) {
    /* one segment per iteration, as CUB gives each a block */
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=] __host__ __device__() {
      THRUST_NS_QUALIFIER::for_each(cucc::policy(), THRUST_NS_QUALIFIER::counting_iterator<int>(0),
                                    THRUST_NS_QUALIFIER::counting_iterator<int>(num_segments > 0 ? num_segments : 0),
                                    [=] __host__ __device__(int i) mutable {
                                      OffsetT b = d_begin_offsets[i], e = d_end_offsets[i];
                                      if (e <= b) {
                                        d_out[i] = init;
                                        return;
                                      }
                                      OutputT agg = cucc::aggregate_seq<OutputT>(d_in + b, e - b, reduction_op);
                                      cucc::normalize(agg, b, d_in);
                                      d_out[i] = reduction_op(init, agg);
                                    });
    });
  }
};

template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
          typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename EqualityOpT,
          typename ReductionOpT>
struct DispatchReduceByKey<KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT, AggregatesOutputIteratorT,
                           NumRunsOutputIteratorT, EqualityOpT, ReductionOpT, int> {
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, size_t &temp_storage_bytes, KeysInputIteratorT d_keys_in,
           UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
           AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op,
           ReductionOpT reduction_op, int num_items, cudaStream_t stream, bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=] __host__ __device__() {
      int n = num_items > 0 ? num_items : 0;
      auto keys = cucc::wrap(d_keys_in);
      auto unique = cucc::wrap(d_unique_out);
      auto ends = THRUST_NS_QUALIFIER::reduce_by_key(cucc::policy(), keys, keys + n, cucc::wrap(d_values_in), unique,
                                                     cucc::wrap(d_aggregates_out), equality_op, reduction_op);
      *d_num_runs_out = int(ends.first - unique);
    });
  }
};

CUB_NAMESPACE_END

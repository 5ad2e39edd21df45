/* cub/device/cucc/select.cuh (cucc): CUB's selection dispatch
 * (DispatchSelectIf, DispatchThreeWayPartitionIf; DispatchUniqueByKey:
 * cub/device/cucc/unique_by_key.cuh) for
 * what cub::DeviceSelect and cub::DevicePartition call, on Thrust's CPU
 * device system (cub/device/cucc_device.cuh). As CUB's: the selected items
 * keep their order; a partition writes the rejected ones after them in
 * reverse order (the last rejected first), a three-way partition's
 * unselected ones in order; Unique keeps the first of each run of items
 * equal to the one before; the counts are written to d_num_selected_out. */
#pragma once
#pragma GCC system_header

#include <cub/device/dispatch/dispatch_select_if.cuh>
#include <cub/device/dispatch/dispatch_three_way_partition.cuh>
#include <cub/device/cucc_device.cuh>

CUB_NAMESPACE_BEGIN
namespace cucc {

struct FlagSet {
  template <class F> __host__ __device__ bool operator()(const F &f) const { return bool(f); }
};

/* by select_op */
template <bool KEEP_REJECTS, class In, class Flags, class Out, class SelectOp, class EqOp>
int select(In d_in, Flags, Out d_out, SelectOp select_op, EqOp, int n, std::integral_constant<int, 0>) {
  auto in = wrap(d_in);
  auto out = wrap(d_out);
  int count = int(THRUST_NS_QUALIFIER::copy_if(policy(), in, in + n, out, select_op) - out);
  if (KEEP_REJECTS)
    THRUST_NS_QUALIFIER::remove_copy_if(policy(), in, in + n, THRUST_NS_QUALIFIER::make_reverse_iterator(out + n),
                                        select_op);
  return count;
}

/* by flags */
template <bool KEEP_REJECTS, class In, class Flags, class Out, class SelectOp, class EqOp>
int select(In d_in, Flags d_flags, Out d_out, SelectOp, EqOp, int n, std::integral_constant<int, 1>) {
  auto in = wrap(d_in);
  auto flags = wrap(d_flags);
  auto out = wrap(d_out);
  int count = int(THRUST_NS_QUALIFIER::copy_if(policy(), in, in + n, flags, out, FlagSet()) - out);
  if (KEEP_REJECTS)
    THRUST_NS_QUALIFIER::remove_copy_if(policy(), in, in + n, flags,
                                        THRUST_NS_QUALIFIER::make_reverse_iterator(out + n), FlagSet());
  return count;
}

/* the first of each run */
template <bool KEEP_REJECTS, class In, class Flags, class Out, class SelectOp, class EqOp>
int select(In d_in, Flags, Out d_out, SelectOp, EqOp equality_op, int n, std::integral_constant<int, 2>) {
  auto in = wrap(d_in);
  auto out = wrap(d_out);
  return int(THRUST_NS_QUALIFIER::unique_copy(policy(), in, in + n, out, equality_op) - out);
}

}  // namespace cucc

template <typename InputIteratorT, typename FlagsInputIteratorT, typename SelectedOutputIteratorT,
          typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, bool KEEP_REJECTS>
struct DispatchSelectIf<InputIteratorT, FlagsInputIteratorT, SelectedOutputIteratorT, NumSelectedIteratorT, SelectOpT,
                        EqualityOpT, int, KEEP_REJECTS> {
  /* CUB's choice: a select_op, else flags, else runs (AgentSelectIf) */
  typedef std::integral_constant<int, !std::is_same<SelectOpT, NullType>::value               ? 0
                                      : !std::is_same<FlagsInputIteratorT, NullType *>::value ? 1
                                                                                              : 2>
      Method;
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in, FlagsInputIteratorT d_flags,
           SelectedOutputIteratorT d_selected_out, NumSelectedIteratorT d_num_selected_out, SelectOpT select_op,
           EqualityOpT equality_op, int num_items, cudaStream_t stream, bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      int n = num_items > 0 ? num_items : 0;
      *d_num_selected_out = cucc::select<KEEP_REJECTS>(d_in, d_flags, d_selected_out, select_op, equality_op, n,
                                                       Method());
    });
  }
};

template <typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOp,
          typename SelectSecondPartOp>
struct DispatchThreeWayPartitionIf<InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT,
                                   UnselectedOutputIteratorT, NumSelectedIteratorT, SelectFirstPartOp,
                                   SelectSecondPartOp, int> {
  /* CUB's parts: the first op's, then the second op's among the rest */
  struct Second {
    SelectFirstPartOp first;
    SelectSecondPartOp second;
    template <class T> __host__ __device__ bool operator()(const T &x) { return !first(x) && second(x); }
  };
  struct Neither {
    SelectFirstPartOp first;
    SelectSecondPartOp second;
    template <class T> __host__ __device__ bool operator()(const T &x) { return !first(x) && !second(x); }
  };
  CUB_RUNTIME_FUNCTION __forceinline__ static cudaError_t
  Dispatch(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
           FirstOutputIteratorT d_first_part_out, SecondOutputIteratorT d_second_part_out,
           UnselectedOutputIteratorT d_unselected_out, NumSelectedIteratorT d_num_selected_out,
           SelectFirstPartOp select_first_part_op, SelectSecondPartOp select_second_part_op, int num_items,
           cudaStream_t stream, bool debug_synchronous) {
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      auto in = cucc::wrap(d_in);
      auto first = cucc::wrap(d_first_part_out);
      auto second = cucc::wrap(d_second_part_out);
      int n = num_items > 0 ? num_items : 0;
      int n1 = int(THRUST_NS_QUALIFIER::copy_if(cucc::policy(), in, in + n, first, select_first_part_op) - first);
      int n2 = int(THRUST_NS_QUALIFIER::copy_if(cucc::policy(), in, in + n, second,
                                                Second{select_first_part_op, select_second_part_op}) -
                   second);
      THRUST_NS_QUALIFIER::copy_if(cucc::policy(), in, in + n, cucc::wrap(d_unselected_out),
                                   Neither{select_first_part_op, select_second_part_op});
      d_num_selected_out[0] = n1;
      d_num_selected_out[1] = n2;
    });
  }
};

CUB_NAMESPACE_END

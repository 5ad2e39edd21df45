/* thrust/system/detail/generic/select_system.h (cucc): Thrust's own, then
 * what Thrust's CUDA system declares for every algorithm and cucc's CPU
 * device system does not: thrust::system_error and thrust::cuda_category
 * (programs catch thrust::system_error having included only algorithms).
 * Every algorithm includes this header after its own declarations, where
 * those two may be included whole. */
#include_next <thrust/system/detail/generic/select_system.h>
#include <thrust/system_error.h>
#include <thrust/system/cuda/error.h>

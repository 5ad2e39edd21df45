/* thrust/iterator/detail/device_system_tag.h (cucc): Thrust's own, then
 * thrust::cuda's execution policies (cucc's, on the CPU device system:
 * thrust/system/cuda/execution_policy.h). Every Thrust header that knows
 * the device system includes this one, so thrust::cuda::par is there
 * wherever Thrust's CUDA system would have declared it. */
#include_next <thrust/iterator/detail/device_system_tag.h>
#include <thrust/system/cuda/execution_policy.h>

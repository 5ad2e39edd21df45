// What cucc does not provide of libcu++ is said at the program's line.
#include <cuda/pipeline>
#include <cuda/latch>
#include <cooperative_groups.h>

__global__ void roles(float *out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cooperative_groups::this_thread_block();
  auto role = threadIdx.x < 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  pipe.consumer_wait();
  out[threadIdx.x] = 0;
}

int main() { return 0; }

// A bounds test in an expression, `v = i < n ? in[i] : 0`, and a block
// reduction's last step, `v = t < nwarps ? sums[t] : 0`: where the lanes
// that take the first arm are a prefix of the warp, each arm runs over its
// lanes with no test (tests/lower/CMakeLists.txt checks cucc --dump-lir).
__global__ void sum(const float *in, float *out, int n) {
  __shared__ float sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (t % 32 == 0) sums[t / 32] = v;
  __syncthreads();
  if (t < 32) {
    v = t < blockDim.x / 32 ? sums[t] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0) atomicAdd(out, v);
  }
}
int main() { return 0; }

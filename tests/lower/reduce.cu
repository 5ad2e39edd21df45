// The lecture notes' reduction as they spell it: what the lowering decides
// (tests/lower/CMakeLists.txt checks cucc --dump-lir).
__global__ void reduce(const float *a, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = a[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() { return 0; }

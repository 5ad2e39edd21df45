// report.cu: CUCC_REPORT=1 prints each launch's residency (blocks per SM
// and the limiting resource, occupancy, waves) and a per-kernel summary.
#include <cstdio>
__global__ void s16(float *p) {
  __shared__ float s[4096];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
int main() {
  float *p;
  cudaMalloc(&p, 4096 * sizeof(float));
  s16<<<400, 128>>>(p);
  s16<<<2, 1024>>>(p);
  int n = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, s16, 128, 0);
  printf("blocks/SM at 128 threads: %d\n", n);
  printf("%s\n", cudaDeviceSynchronize() == cudaSuccess && n == 13 ? "PASS" : "FAIL");
  return 0;
}

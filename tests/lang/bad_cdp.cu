// bad_cdp.cu: a kernel launching a kernel (dynamic parallelism) is refused
// at the launch.
#include <cstdio>
__global__ void child(int depth) { printf("depth %d\n", depth); }
__global__ void parent(int depth) {
  if (threadIdx.x == 0) child<<<1, 1>>>(depth + 1);
}
int main() {
  parent<<<1, 32>>>(0);
  return cudaDeviceSynchronize() != cudaSuccess;
}

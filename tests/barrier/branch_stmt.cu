// branch_stmt.cu: a block-level if (one of its branches holds a barrier)
// whose other branch is one statement, not a block: that statement is a
// region of its own, and a variable it uses lives where that region can
// reach it (region.c; it was declared nowhere: generated C that did not
// compile). Found in CUB's BlockReduce.
#include <cstdio>
__global__ void k(int *o, int c) {
  __shared__ int s[64]; int w;
  if (c) { s[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = s[threadIdx.x ^ 1]; }
  else w = threadIdx.x * 2, o[threadIdx.x] = w;
}
int main() {
  int *o; cudaMallocManaged(&o, 64 * 4);
  int bad = 0;
  for (int c = 0; c < 2; c++) {
    k<<<1, 64>>>(o, c); cudaDeviceSynchronize();
    for (int t = 0; t < 64; t++) bad += o[t] != (c ? (t ^ 1) : 2 * t);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

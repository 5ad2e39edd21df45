// rdc_main.cu (with rdc_leaf.cu, -rdc=true): a kernel launches, from
// device code, a kernel that another file defines, as cuda-samples'
// cdpAdvancedQuicksort does (its bitonic sort is in cdpBitonicSort.cu).
#include <cstdio>
__global__ void leaf(int *v, int base);   // rdc_leaf.cu
__global__ void root(int *v) {
  if (threadIdx.x % 2 == 0) leaf<<<1, 8>>>(v + threadIdx.x * 8, threadIdx.x);
}
int main() {
  int *v;
  cudaMallocManaged(&v, 16 * 8 * sizeof(int));
  for (int i = 0; i < 128; i++) v[i] = -1;
  root<<<1, 16>>>(v);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  int bad = 0;
  for (int i = 0; i < 128; i++) bad += v[i] != ((i / 8) % 2 == 0 ? (i / 8) * 100 + i % 8 : -1);
  if (bad) {
    printf("FAIL: %d wrong\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}

// overload_arch.cu: a device-side launch of a template or overloaded kernel
// that only device code's preprocessing shows (`#if __CUDA_ARCH__ >= 350`,
// as CDP code for older GPUs guards it): found in cucc's __CUDA_ARCH__ parse,
// wrapped for clang (frontend/cdp.c), the file translated again. Checked
// against a CPU reference.
#include <cstdio>

template <int N> __global__ void chain(int *v, int d) {
  v[d] = N * 100 + d;
#if __CUDA_ARCH__ >= 350
  if (d < 5) chain<N><<<1, 1>>>(v, d + 1);
#endif
}
__global__ void fill(int *v, int x) { v[threadIdx.x] = x; }
__global__ void fill(float *v, float x) { v[threadIdx.x] = x; }
__global__ void both(int *a, float *b) {
#ifdef __CUDA_ARCH__
  fill<<<1, 4>>>(a, 3);
  fill<<<1, 4>>>(b, 0.5f);
#endif
}

int main() {
  int *v, *a, fails = 0;
  float *b;
  cudaMallocManaged(&v, 6 * sizeof(int));
  cudaMallocManaged(&a, 4 * sizeof(int));
  cudaMallocManaged(&b, 4 * sizeof(float));
  chain<7><<<1, 1>>>(v, 0);
  both<<<1, 1>>>(a, b);
  if (cudaDeviceSynchronize() != cudaSuccess) fails++;
  for (int i = 0; i < 6; i++)
    if (v[i] != 700 + i) printf("FAIL: chain: v[%d] = %d\n", i, v[i]), fails++;
  for (int i = 0; i < 4; i++)
    if (a[i] != 3 || b[i] != 0.5f) printf("FAIL: fill: %d %g\n", a[i], b[i]), fails++;
  if (!fails) printf("PASS\n");
  return fails != 0;
}

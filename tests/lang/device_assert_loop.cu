// device_assert_loop.cu: assert() inside the loops kernels spend their time
// in (a grid-stride loop over a 1-D grid, a loop in a 2-D tile). A holding
// assert changes nothing and costs a test, not a mask: the loop still runs
// over runs of lanes (lower_assert_loop checks the lowered form). The last
// launch fails one assert in a later iteration of the grid-stride loop: its
// thread is reported, the launch fails with cudaErrorAssert.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(const float *a, float *b, int n) {
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += blockDim.x * gridDim.x) {
    assert(a[j] >= 0);
    b[j] = 2 * a[j];
  }
}

__global__ void tile(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0;
  for (int k = 0; k < 4; k++) {
    assert(a[y * w + x] >= 0 && k < 4);
    s += a[y * w + x] * k;
  }
  b[y * w + x] = s;
}

int main() {
  const int n = 4096, w = 70, h = 50;
  float *a, *b;
  cudaMallocManaged(&a, n * sizeof *a);
  cudaMallocManaged(&b, n * sizeof *b);
  for (int i = 0; i < n; i++) a[i] = i % 97;
  int fails = 0;
  int shapes[][2] = {{4, 64}, {3, 96}, {2, 48}, {1, 1024}};   // block-wide, whole rows, a partial warp
  for (auto &s : shapes) {
    cudaMemset(b, 0, n * sizeof *b);
    scale<<<s[0], s[1]>>>(a, b, n);
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: scale<<<%d, %d>>> failed\n", s[0], s[1]); fails++; }
    for (int i = 0; i < n; i++)
      if (b[i] != 2 * a[i]) { printf("FAIL: scale<<<%d, %d>>>: b[%d] = %g\n", s[0], s[1], i, b[i]); fails++; break; }
  }
  dim3 bl[] = {dim3(16, 16), dim3(32, 4), dim3(8, 8)};
  for (auto &t : bl) {
    cudaMemset(b, 0, n * sizeof *b);
    tile<<<dim3((w + t.x - 1) / t.x, (h + t.y - 1) / t.y), t>>>(a, b, w, h);
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: tile %ux%u failed\n", t.x, t.y); fails++; }
    for (int i = 0; i < w * h; i++)
      if (b[i] != 6 * a[i]) { printf("FAIL: tile %ux%u: b[%d] = %g\n", t.x, t.y, i, b[i]); fails++; break; }
  }
  a[1000] = -1;   // <<<4, 64>>> strides by 256: j = 1000 is block 3, thread 40, in its fourth iteration
  scale<<<4, 64>>>(a, b, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaErrorAssert) { printf("FAIL: got %s, expected cudaErrorAssert\n", cudaGetErrorName(e)); fails++; }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

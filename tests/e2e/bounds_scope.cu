// A bounds test that every thread of a block passes is taken once at its
// region's top (lowering/bound.c): not from a uniform variable the region
// declares later. cuda-samples' simple_wmma_gemm (dmmaTensorCoreGemm),
// without the tensor cores: `int aCol = i;` inside the k loop of a kernel
// without barriers (the generated C read aCol before its declaration).
// Checked against the host.
#include <cstdio>

__global__ void gemm(const float *a, const float *b, float *c, int m_ld, int n_ld, int k_ld) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  float acc = 0;
  for (int i = 0; i < k_ld; i += 4) {
    int aCol = i;
    int aRow = warpM * 4;
    int bCol = warpN * 4;
    int bRow = i;
    if (aRow < m_ld && aCol < k_ld && bRow < k_ld && bCol < n_ld) acc += a[aRow * k_ld + aCol] * b[bRow * n_ld + bCol];
  }
  int cRow = warpM * 4, cCol = warpN * 4;
  if (cRow < m_ld && cCol < n_ld) c[(blockIdx.x * blockDim.x + threadIdx.x) * 64 + warpN] = acc;
}

int main() {
  const int m = 64, n = 64, k = 40;
  float *a, *b, *c;
  cudaMallocManaged(&a, m * k * sizeof(float));
  cudaMallocManaged(&b, k * n * sizeof(float));
  cudaMallocManaged(&c, 256 * 64 * sizeof(float));
  for (int i = 0; i < m * k; i++) a[i] = i % 5;
  for (int i = 0; i < k * n; i++) b[i] = i % 3;
  for (int i = 0; i < 256 * 64; i++) c[i] = -1;
  gemm<<<dim3(4, 4), dim3(64, 4)>>>(a, b, c, m, n, k);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  for (int t = 0; t < 256; t++)
    for (int wn = 0; wn < 16; wn++) {
      int wm = t / 32, cRow = wm * 4, cCol = wn * 4;
      float want = 0;
      for (int i = 0; i < k; i += 4) want += a[cRow * k + i] * b[i * n + cCol];
      if (c[t * 64 + wn] != want && bad++ < 5) printf("%d %d: %g, expected %g\n", t, wn, c[t * 64 + wn], want);
    }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

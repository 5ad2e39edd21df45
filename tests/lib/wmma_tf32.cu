// nvcuda::wmma with tf32 operands (issue 23): 16x16x8, each layout of A,
// B and C, operands rounded with wmma::__float_to_tf32 as the samples do
// (to nearest, ties away from zero: 10 mantissa bits) or left as floats
// (a tensor core then reads their 19 upper bits); sums in float. Checked
// against a CPU reference that rounds the operands the same way.
#include "wmma.h"

__global__ void to_tf32(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = wmma::__float_to_tf32(in[i]);
}

int main() {
  layouts<16, 16, 8, wmma::precision::tf32, float, float>("tf32 rounded", 1.0f, 2e-6, 1);
  run<16, 16, 8, wmma::precision::tf32, wmma::row_major, wmma::col_major, float, float>(
      "tf32 not rounded", wmma::mem_row_major, 0.5f, 2e-6, 0);

  // __float_to_tf32: halfway cases go away from zero; NaN and infinities stay
  const float h = ldexpf(1.0f, -11);   // half a tf32 ulp of 1
  const float in[8] = {1.0f + h, -(1.0f + h), 1.0f + h / 2, 1.0f + 3 * h, 3.0f, INFINITY, -INFINITY, NAN};
  const float want[8] = {1.0f + 2 * h, -(1.0f + 2 * h), 1.0f, 1.0f + 4 * h, 3.0f, INFINITY, -INFINITY, NAN};
  float *d;
  cudaMallocManaged(&d, 16 * sizeof(float));
  memcpy(d, in, sizeof in);
  to_tf32<<<1, 32>>>(d, d + 8, 8);
  cudaDeviceSynchronize();
  for (int i = 0; i < 8; i++)
    CHECK(d[8 + i] == want[i] || (d[8 + i] != d[8 + i] && want[i] != want[i]), "__float_to_tf32(%.9g) = %.9g, expected %.9g",
          in[i], d[8 + i], want[i]);
  cudaFree(d);
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}

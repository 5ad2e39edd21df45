// nvcuda::wmma with double operands (issue 23): 8x8x4, each layout of A,
// B and C, double accumulators (num_elements 2: each element of a tile in
// one lane); checked against a CPU reference.
#include "wmma.h"
#include <cstring>

// How a tensor core sums: one 8x8x4 mma_sync whose products round or
// cancel, its D's diagonal against the bits an NVIDIA H200 (Hopper, the
// H100's DMMA) gave for this kernel built by nvcc -arch=sm_90: each
// product fused with the sum (2^-29 + 2^-60, not 2^-29), summed in k order
// from C (c + 2^53 - 2^53 = 0 where c = 1).
__global__ void rounding(const double *a, const double *b, const double *c, double *d) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

static void rounding_truth() {
  double *a, *b, *c, *d;
  cudaMallocManaged(&a, 32 * sizeof(double));
  cudaMallocManaged(&b, 32 * sizeof(double));
  cudaMallocManaged(&c, 64 * sizeof(double));
  cudaMallocManaged(&d, 64 * sizeof(double));
  const double e = 1.0 / (1 << 30), f = e * e * 4, big = 9007199254740992.0;   // 2^-30, 2^-58, 2^53
  for (int i = 0; i < 32; i++) a[i] = b[i] = 0;
  for (int i = 0; i < 64; i++) c[i] = 0;
  a[0] = 1 + e, b[0] = 1 + e, c[0] = -1;   // (1 + 2^-30)^2 - 1
  for (int k = 0; k < 4; k++) a[4 + k] = k == 0 ? 1.0 : f, b[k * 8 + 1] = 1;
  c[9] = -1;                               // 1 + 3 * 2^-58 - 1
  a[8] = big, a[9] = 1, a[10] = -big, a[11] = 1;
  for (int k = 0; k < 4; k++) b[k * 8 + 2] = 1;   // 2^53 + 1 - 2^53 + 1
  a[12] = big, a[13] = -big, c[27] = 1;
  for (int k = 0; k < 4; k++) b[k * 8 + 3] = 1;   // 1 + 2^53 - 2^53
  rounding<<<1, 32>>>(a, b, c, d);
  cudaDeviceSynchronize();
  const unsigned long long want[4] = {0x3e20000000200000ull, 0x3c68000000000000ull, 0x3ff0000000000000ull, 0};
  for (int r = 0; r < 4; r++) {
    unsigned long long got;
    memcpy(&got, &d[r * 8 + r], sizeof got);
    CHECK(got == want[r], "double 8x8x4 rounding and order as an H200's");
  }
  cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
}

int main() {
  rounding_truth();
  layouts<8, 8, 4, double, double, double>("double 8x8x4", 0.5f, 1e-14);
  run<8, 8, 4, double, wmma::row_major, wmma::row_major, double, double>("double A row B row", wmma::mem_col_major, 1.0f, 1e-14);
  typedef wmma::fragment<wmma::accumulator, 8, 8, 4, double> f8x8;
  CHECK(elems<f8x8>() == 2, "num_elements of an 8x8 double accumulator");
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}

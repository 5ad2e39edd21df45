// bench/wmma: a GEMM with nvcuda::wmma (half operands, float accumulators,
// each warp a 16x16 tile of C read from global memory, as cuda-samples'
// simple_wmma_gemm) against the plain tiled shared-memory matmul of the
// same size in float (as matrixMul), and the same wmma GEMM in bf16 and
// tf32, and in double (8x8x4 tiles). Prints each one's best time of 3 and
// GFLOP/s; checks all against the tiled one (the operands are multiples of
// 1/4 in [-1, 1]: every sum is exact in each type).
#include <mma.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace nvcuda;

template <class T, class S>
__global__ void wmma_gemm(const S *a, const S *b, float *c, int n) {
  int tm = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 16, tn = (blockIdx.y * blockDim.y + threadIdx.y) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16 / (sizeof(S) / 2), T, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 16 / (sizeof(S) / 2), T, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 16 / (sizeof(S) / 2), float> acc;
  const int K = 16 / (sizeof(S) / 2);
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < n; k += K) {
    wmma::load_matrix_sync(af, a + tm * n + k, n);
    wmma::load_matrix_sync(bf, b + tn * n + k, n);
    wmma::mma_sync(acc, af, bf, acc);
  }
  wmma::store_matrix_sync(c + tm * n + tn, acc, n, wmma::mem_row_major);
}

// the same in double, 8x8 tiles of C
__global__ void dmma_gemm(const double *a, const double *b, double *c, int n) {
  int tm = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 8, tn = (blockIdx.y * blockDim.y + threadIdx.y) * 8;
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::fill_fragment(acc, 0.0);
  for (int k = 0; k < n; k += 4) {
    wmma::load_matrix_sync(af, a + tm * n + k, n);
    wmma::load_matrix_sync(bf, b + tn * n + k, n);
    wmma::mma_sync(acc, af, bf, acc);
  }
  wmma::store_matrix_sync(c + tm * n + tn, acc, n, wmma::mem_row_major);
}

// C = A·B^T (B stored by columns, as the wmma kernel reads it), 16x16 tiles
__global__ void tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float as[16][16], bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float s = 0;
  for (int k = 0; k < n; k += 16) {
    as[ty][tx] = a[row * n + k + tx];
    bs[ty][tx] = b[(blockIdx.x * 16 + ty) * n + k + tx];
    __syncthreads();
    for (int j = 0; j < 16; j++) s += as[ty][j] * bs[tx][j];
    __syncthreads();
  }
  c[row * n + col] = s;
}

template <class F> static double best(F f) {
  double t = 1e30;
  for (int r = 0; r < 4; r++) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    cudaDeviceSynchronize();
    double d = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0 && d < t) t = d;   // the first is a warm-up
  }
  return t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  size_t nn = (size_t)n * n;
  half *ah, *bh;
  __nv_bfloat16 *ab, *bb;
  float *af, *bf, *c1, *c2, *c3, *c4;
  double *ad, *bd, *c5;
  cudaMallocManaged(&ah, nn * 2);
  cudaMallocManaged(&bh, nn * 2);
  cudaMallocManaged(&af, nn * 4);
  cudaMallocManaged(&bf, nn * 4);
  cudaMallocManaged(&c1, nn * 4);
  cudaMallocManaged(&c2, nn * 4);
  cudaMallocManaged(&c3, nn * 4);
  cudaMallocManaged(&c4, nn * 4);
  cudaMallocManaged(&ab, nn * 2);
  cudaMallocManaged(&bb, nn * 2);
  cudaMallocManaged(&ad, nn * 8);
  cudaMallocManaged(&bd, nn * 8);
  cudaMallocManaged(&c5, nn * 8);
  for (size_t i = 0; i < nn; i++) {
    af[i] = (float)(rand() % 9 - 4) / 4, bf[i] = (float)(rand() % 9 - 4) / 4;
    ah[i] = af[i], bh[i] = bf[i];
    ab[i] = af[i], bb[i] = bf[i];
    ad[i] = af[i], bd[i] = bf[i];
  }
  double flop = 2.0 * n * n * n;
  double tt = best([&] { tiled<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(af, bf, c1, n); });
  double tw = best([&] { wmma_gemm<half, half><<<dim3(n / 64, n / 64), dim3(128, 4)>>>(ah, bh, c2, n); });
  double tb = best([&] { wmma_gemm<__nv_bfloat16, __nv_bfloat16><<<dim3(n / 64, n / 64), dim3(128, 4)>>>(ab, bb, c4, n); });
  double tf = best([&] { wmma_gemm<wmma::precision::tf32, float><<<dim3(n / 64, n / 64), dim3(128, 4)>>>(af, bf, c3, n); });
  double td = best([&] { dmma_gemm<<<dim3(n / 32, n / 32), dim3(128, 4)>>>(ad, bd, c5, n); });
  int bad = 0;
  for (size_t i = 0; i < nn; i++) bad += c1[i] != c2[i] || c1[i] != c3[i] || c1[i] != c4[i] || c1[i] != c5[i];
  printf("n = %d\n", n);
  printf("%-34s %10.1f ms %8.2f GFLOP/s\n", "tiled shared-memory matmul (float)", tt * 1e3, flop / tt / 1e9);
  printf("%-34s %10.1f ms %8.2f GFLOP/s  %.2fx\n", "wmma 16x16x16 (half, float acc)", tw * 1e3, flop / tw / 1e9, tt / tw);
  printf("%-34s %10.1f ms %8.2f GFLOP/s  %.2fx\n", "wmma 16x16x16 (bf16, float acc)", tb * 1e3, flop / tb / 1e9, tt / tb);
  printf("%-34s %10.1f ms %8.2f GFLOP/s  %.2fx\n", "wmma 16x16x8 (tf32, float acc)", tf * 1e3, flop / tf / 1e9, tt / tf);
  printf("%-34s %10.1f ms %8.2f GFLOP/s  %.2fx\n", "wmma 8x8x4 (double)", td * 1e3, flop / td / 1e9, tt / td);
  if (bad) printf("CHECK failed: %d elements differ\n", bad);
  return bad != 0;
}

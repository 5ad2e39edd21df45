// CUB's warp and block primitives on float and double (issue 23, found by
// a held-out hunt): their shuffles are inline PTX on 32-bit registers
// (shfl.sync.*.b32, mov.b64 {lo, hi}), which moved a float's value as an
// integer (0.25 -> 0) instead of its bits. BlockReduce with each of its
// three algorithms, WarpReduce and WarpScan of double, BlockScan of float.
// Checked against the host (sums of quarters, exact in float).
#include <cub/cub.cuh>
#include <cstdio>

static int fails;
#define CHECK(c, ...)                             \
  do {                                            \
    if (!(c)) {                                   \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      fails++;                                    \
    }                                             \
  } while (0)

template <int A> __global__ void block_sum(const float *in, float *out) {
  typedef cub::BlockReduce<float, 128, (cub::BlockReduceAlgorithm)A> BR;
  __shared__ typename BR::TempStorage tmp;
  float s = BR(tmp).Sum(in[blockIdx.x * 128 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void warp_double(const double *in, double *sum, double *scan) {
  typedef cub::WarpReduce<double> WR;
  typedef cub::WarpScan<double> WS;
  __shared__ typename WR::TempStorage rt[2];
  __shared__ typename WS::TempStorage st[2];
  int w = threadIdx.x / 32;
  double v = in[threadIdx.x];
  double s = WR(rt[w]).Sum(v);
  if (threadIdx.x % 32 == 0) sum[w] = s;
  double e;
  WS(st[w]).ExclusiveSum(v, e);
  scan[threadIdx.x] = e;
}

__global__ void block_scan(const float *in, float *out) {
  typedef cub::BlockScan<float, 128> BS;
  __shared__ typename BS::TempStorage tmp;
  float r;
  BS(tmp).InclusiveSum(in[threadIdx.x], r);
  out[threadIdx.x] = r;
}

int main() {
  float *in, *out;
  double *din, *dsum, *dscan;
  cudaMallocManaged(&in, 3 * 128 * sizeof(float));
  cudaMallocManaged(&out, 3 * 128 * sizeof(float));
  cudaMallocManaged(&din, 64 * sizeof(double));
  cudaMallocManaged(&dsum, 2 * sizeof(double));
  cudaMallocManaged(&dscan, 64 * sizeof(double));
  for (int i = 0; i < 3 * 128; i++) in[i] = 0.25f * (i % 7) - 0.5f;
  for (int i = 0; i < 64; i++) din[i] = 0.125 * i - 1.5;
  float ref[3] = {0, 0, 0};
  for (int i = 0; i < 3 * 128; i++) ref[i / 128] += in[i];

  block_sum<(int)cub::BLOCK_REDUCE_WARP_REDUCTIONS><<<3, 128>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
  for (int b = 0; b < 3; b++) CHECK(out[b] == ref[b], "BlockReduce WARP_REDUCTIONS block %d: %g, expected %g", b, out[b], ref[b]);
  block_sum<(int)cub::BLOCK_REDUCE_RAKING><<<3, 128>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
  for (int b = 0; b < 3; b++) CHECK(out[b] == ref[b], "BlockReduce RAKING block %d: %g, expected %g", b, out[b], ref[b]);
  block_sum<(int)cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY><<<3, 128>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
  for (int b = 0; b < 3; b++)
    CHECK(out[b] == ref[b], "BlockReduce RAKING_COMMUTATIVE_ONLY block %d: %g, expected %g", b, out[b], ref[b]);

  warp_double<<<1, 64>>>(din, dsum, dscan);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
  for (int w = 0; w < 2; w++) {
    double s = 0;
    for (int l = 0; l < 32; l++) {
      CHECK(dscan[w * 32 + l] == s, "WarpScan<double> lane %d: %g, expected %g", w * 32 + l, dscan[w * 32 + l], s);
      s += din[w * 32 + l];
    }
    CHECK(dsum[w] == s, "WarpReduce<double> warp %d: %g, expected %g", w, dsum[w], s);
  }

  block_scan<<<1, 128>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
  float s = 0;
  int bad = 0;
  for (int i = 0; i < 128; i++) bad += out[i] != (s += in[i]);
  CHECK(bad == 0, "BlockScan<float> InclusiveSum: %d wrong", bad);
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}

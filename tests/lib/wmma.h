// The wmma tests' common part (issue 23): a GEMM of 2x2 tiles over several
// k steps written as CUDA programs write it with nvcuda::wmma (fragments
// loaded with a padded leading dimension, mma_sync chained through the
// accumulator, an elementwise pass over x[i], a store), for one shape,
// operand type, layouts and accumulator types, checked against a CPU
// reference; and a warp's sum of its lanes' x[i] (each element of a tile
// belongs to one lane, as on a GPU). Ground truth: the four wmma tests,
// built by nvcc 13.0 for sm_90, pass on an H100 too (2026-11-25; without
// the float and half satf cases, which CUDA 13's mma.h no longer takes):
// the GPU computes what the references say, within these tolerances.
#include <mma.h>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace nvcuda;

static int fails;
#define CHECK(c, ...)                             \
  do {                                            \
    if (!(c)) {                                   \
      if (fails++ < 20) {                         \
        printf("FAIL %s:%d: ", __FILE__, __LINE__); \
        printf(__VA_ARGS__);                      \
        printf("\n");                             \
      }                                           \
    }                                             \
  } while (0)

// storage of an operand type, and its value as the test's reference sees it
template <class T> struct st { typedef T type; };
template <> struct st<wmma::precision::tf32> { typedef float type; };
static double val(__half h) { return (float)h; }
static double val(__nv_bfloat16 h) { return (float)h; }
static double val(float f) { return f; }
static double val(double f) { return f; }
static double val(signed char v) { return v; }
static double val(unsigned char v) { return v; }
static double val(int v) { return v; }

template <class L> struct lay;
template <> struct lay<wmma::row_major> { static const bool row = true; };
template <> struct lay<wmma::col_major> { static const bool row = false; };

__device__ float scale(float v, float a) { return v * a; }
__device__ double scale(double v, float a) { return v * a; }
__device__ int scale(int v, float a) { return v * (int)a; }
__device__ __half scale(__half v, float a) { return __float2half(a * __half2float(v)); }

// D = alpha * (A·B + C) for tiles (2x2 of them, one per warp) at k steps of K
template <int M, int N, int K, class TA, class LA, class LB, class TD, class TC>
__global__ void gemm(const typename st<TA>::type *A, const typename st<TA>::type *B, const TC *C, TD *D,
                     double *sums, int lda, int ldb, int ldc, int ksteps, wmma::layout_t cl, float alpha,
                     bool tf32) {
  int warp = (threadIdx.x + blockDim.x * threadIdx.y) / 32, lane = threadIdx.x % 32;
  int tm = warp / 2, tn = warp % 2;
  wmma::fragment<wmma::accumulator, M, N, K, TC> c;
  wmma::fragment<wmma::accumulator, M, N, K, TD> d;
  const TC *cp = cl == wmma::mem_row_major ? C + tm * M * ldc + tn * N : C + tn * N * ldc + tm * M;
  wmma::load_matrix_sync(c, cp, ldc, cl);
  for (int s = 0; s < ksteps; s++) {
    wmma::fragment<wmma::matrix_a, M, N, K, TA, LA> a;
    wmma::fragment<wmma::matrix_b, M, N, K, TA, LB> b;
    int r = tm * M, k = s * K, col = tn * N;
    wmma::load_matrix_sync(a, lay<LA>::row ? A + r * lda + k : A + k * lda + r, lda);
    wmma::load_matrix_sync(b, lay<LB>::row ? B + k * ldb + col : B + col * ldb + k, ldb);
    if (tf32) {
      for (int i = 0; i < a.num_elements; i++) a.x[i] = wmma::__float_to_tf32(a.x[i]);
      for (int i = 0; i < b.num_elements; i++) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    }
    if (s == 0) wmma::mma_sync(d, a, b, c);
    else wmma::mma_sync(d, a, b, d);
  }
  double sum = 0;
  for (int i = 0; i < d.num_elements; i++) {
    d.x[i] = scale(d.x[i], alpha);
    sum += (double)d.x[i];
  }
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  if (lane == 0) sums[warp] = sum;
  TD *dp = cl == wmma::mem_row_major ? D + tm * M * ldc + tn * N : D + tn * N * ldc + tm * M;
  wmma::store_matrix_sync(dp, d, ldc, cl);
}

// a random operand value of type T (exact in T)
template <class T> static T rnd();
template <> __half rnd<__half>() { return __half((float)(rand() % 65 - 32) / 16); }
template <> __nv_bfloat16 rnd<__nv_bfloat16>() { return __nv_bfloat16((float)(rand() % 65 - 32) / 8); }
template <> float rnd<float>() { return (float)((double)rand() / RAND_MAX * 2 - 1); }
template <> double rnd<double>() { return (double)rand() / RAND_MAX * 2 - 1; }
template <> signed char rnd<signed char>() { return (signed char)(rand() % 256 - 128); }
template <> unsigned char rnd<unsigned char>() { return (unsigned char)(rand() % 256); }
template <> int rnd<int>() { return rand() % 2001 - 1000; }

// tf32 as the kernel sees its operands: rounded to nearest, ties away
// (__float_to_tf32), or as a tensor core reads an unrounded one (its 19
// upper bits)
static float tf32_rna(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u += 0x1000u;
  u &= 0xffffe000u;
  memcpy(&f, &u, 4);
  return f;
}
static float tf32_trunc(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  u &= 0xffffe000u;
  memcpy(&f, &u, 4);
  return f;
}

// One case; `rel`: the tolerance relative to the sum of the magnitudes of
// an element's terms (0: exact)
template <int M, int N, int K, class TA, class LA, class LB, class TD, class TC>
static void run(const char *name, wmma::layout_t cl, float alpha, double rel, int tf32 = -1) {
  typedef typename st<TA>::type S;
  const int ksteps = 3, Mt = 2 * M, Nt = 2 * N, Kt = ksteps * K;
  const bool arow = lay<LA>::row, brow = lay<LB>::row, crow = cl == wmma::mem_row_major;
  // leading dimensions with padding, as the samples' shared tiles have
  int lda = (arow ? Kt : Mt) + 8, ldb = (brow ? Nt : Kt) + 8, ldc = (crow ? Nt : Mt) + 4;
  int na = lda * (arow ? Mt : Kt), nb = ldb * (brow ? Kt : Nt), nc = ldc * (crow ? Mt : Nt);
  S *A, *B;
  TC *C;
  TD *D;
  double *sums;
  cudaMallocManaged(&A, na * sizeof(S));
  cudaMallocManaged(&B, nb * sizeof(S));
  cudaMallocManaged(&C, nc * sizeof(TC));
  cudaMallocManaged(&D, nc * sizeof(TD));
  cudaMallocManaged(&sums, 4 * sizeof(double));
  for (int i = 0; i < na; i++) A[i] = rnd<S>();
  for (int i = 0; i < nb; i++) B[i] = rnd<S>();
  for (int i = 0; i < nc; i++) C[i] = (TC)rnd<TC>();
  for (int i = 0; i < nc; i++) D[i] = (TD)0;
  gemm<M, N, K, TA, LA, LB, TD, TC><<<1, dim3(64, 2)>>>(A, B, C, D, sums, lda, ldb, ldc, ksteps, cl, alpha, tf32 == 1);
  cudaError_t e = cudaDeviceSynchronize();
  CHECK(e == cudaSuccess, "%s: %s", name, cudaGetErrorString(e));
  int bad = 0;
  double tsum[4] = {0, 0, 0, 0};
  for (int i = 0; i < Mt; i++)
    for (int j = 0; j < Nt; j++) {
      int ci = crow ? i * ldc + j : j * ldc + i;
      double ref = val(C[ci]), mag = fabs(ref);
      for (int k = 0; k < Kt; k++) {
        double a = val(A[arow ? i * lda + k : k * lda + i]), b = val(B[brow ? k * ldb + j : j * ldb + k]);
        if (tf32 >= 0) {
          a = tf32 ? tf32_rna((float)a) : tf32_trunc((float)a);
          b = tf32 ? tf32_rna((float)b) : tf32_trunc((float)b);
        }
        ref += a * b;
        mag += fabs(a * b);
      }
      ref *= alpha;
      mag *= fabs(alpha);
      double got = val(D[ci]);
      tsum[(i / M) * 2 + j / N] += got;
      if (fabs(got - ref) > rel * mag + (rel ? 1e-30 : 0)) {
        if (bad++ < 3) CHECK(0, "%s: D[%d][%d] = %.9g, expected %.9g", name, i, j, got, ref);
      }
    }
  for (int t = 0; t < 4; t++)
    CHECK(fabs(sums[t] - tsum[t]) <= 1e-9 * (fabs(tsum[t]) + 1), "%s: tile %d's sum over the lanes' x[i] = %.9g, expected %.9g", name, t,
          sums[t], tsum[t]);
  CHECK(bad == 0, "%s: %d of %d elements wrong", name, bad, Mt * Nt);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(D);
  cudaFree(sums);
}

// A row-major and B column-major, then the other way round, each with C
// (and D) row- and column-major
template <int M, int N, int K, class TA, class TD, class TC>
static void layouts(const char *name, float alpha, double rel, int tf32 = -1) {
  char n[160];
  const wmma::layout_t ls[2] = {wmma::mem_row_major, wmma::mem_col_major};
  for (int c = 0; c < 2; c++) {
    snprintf(n, sizeof n, "%s A row B col C %s", name, c ? "col" : "row");
    run<M, N, K, TA, wmma::row_major, wmma::col_major, TD, TC>(n, ls[c], alpha, rel, tf32);
    snprintf(n, sizeof n, "%s A col B row C %s", name, c ? "col" : "row");
    run<M, N, K, TA, wmma::col_major, wmma::row_major, TD, TC>(n, ls[c], alpha, rel, tf32);
  }
}

// each lane holds num_elements of the tile's elements, every one once
template <class F> __global__ void count_elems(int *n) { F f; if (threadIdx.x == 0) *n = f.num_elements; }

// mma_sync(d, a, b, c, satf) on one tile whose C is given, element 0 of D
template <int M, int N, int K, class TA, class TD, class TC>
__global__ void sat(const typename st<TA>::type *A, const typename st<TA>::type *B, const TC *C, TD *D, bool satf) {
  wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, M, N, K, TA, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, M, N, K, TC> c;
  wmma::fragment<wmma::accumulator, M, N, K, TD> d;
  wmma::load_matrix_sync(a, A, K);
  wmma::load_matrix_sync(b, B, N);
  wmma::load_matrix_sync(c, C, N, wmma::mem_row_major);
  wmma::mma_sync(d, a, b, c, satf);
  wmma::store_matrix_sync(D, d, N, wmma::mem_row_major);
}

// A·B all ones times `one`, C[j] = c[j % 4]: D[j] for satf on and off
template <int M, int N, int K, class TA, class TD, class TC>
static void satf(const char *name, typename st<TA>::type one, const TC c[4], const TD want[2][4]) {
  typedef typename st<TA>::type S;
  S *A, *B;
  TC *C;
  TD *D;
  cudaMallocManaged(&A, M * K * sizeof(S));
  cudaMallocManaged(&B, K * N * sizeof(S));
  cudaMallocManaged(&C, M * N * sizeof(TC));
  cudaMallocManaged(&D, M * N * sizeof(TD));
  for (int i = 0; i < M * K; i++) A[i] = one;
  for (int i = 0; i < K * N; i++) B[i] = one;
  for (int i = 0; i < M * N; i++) C[i] = c[i % 4];
  for (int s = 0; s < 2; s++) {
    sat<M, N, K, TA, TD, TC><<<1, 32>>>(A, B, C, D, s);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "%s: launch", name);
    for (int i = 0; i < M * N; i++) {
      double g = val(D[i]), w = val(want[s][i % 4]);
      if (!(g == w || (g != g && w != w))) {
        CHECK(0, "%s: satf=%d: D[%d] = %.9g, expected %.9g", name, s, i, g, w);
        break;
      }
    }
  }
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(D);
}

template <class F> static int elems() {
  int *n;
  cudaMallocManaged(&n, sizeof(int));
  count_elems<F><<<1, 32>>>(n);
  cudaDeviceSynchronize();
  int r = *n;
  cudaFree(n);
  return r;
}

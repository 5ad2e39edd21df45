// CUB's warp and block primitives as CUDA programs use them (issue 23):
// Debian's CUB 1.17, unmodified, each kernel with its
// `__shared__ typename X::TempStorage` (some in a union), checked against a
// CPU reference. Kernels take the algorithm as an int template argument.
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cstdio>

static int fails;
#define CHECK(c, ...)                                  \
  do {                                                 \
    if (!(c)) {                                        \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);      \
      printf(__VA_ARGS__);                             \
      printf("\n");                                    \
      fails++;                                         \
    }                                                  \
  } while (0)

enum { N = 256 };

struct MaxOp {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// WarpReduce (Sum, Reduce with a functor) and WarpScan, two warps each
// with its own TempStorage
__global__ void warp_k(const int *in, int *inc, int *exc, int *sum, int *mx) {
  typedef cub::WarpScan<int> WS;
  typedef cub::WarpReduce<int> WR;
  __shared__ typename WS::TempStorage ts[2];
  __shared__ typename WR::TempStorage tr[2];
  int w = threadIdx.x / 32, v = in[threadIdx.x], a, b;
  WS(ts[w]).InclusiveSum(v, a);
  WS(ts[w]).ExclusiveSum(v, b);
  inc[threadIdx.x] = a;
  exc[threadIdx.x] = b;
  int s = WR(tr[w]).Sum(v);
  int m = WR(tr[w]).Reduce(v, MaxOp());
  if (threadIdx.x % 32 == 0) sum[w] = s, mx[w] = m;
}

// the block's sum, and the sum of its first `valid` threads' items (a
// partial tile: CUB's shuffles then differ by lane in their clamp)
template <int B, int A>
__global__ void block_reduce_k(const int *in, int *out, int valid) {
  typedef cub::BlockReduce<int, B, (cub::BlockReduceAlgorithm)A> BR;
  __shared__ typename BR::TempStorage temp;
  int s = BR(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) out[0] = s;
  __syncthreads();
  s = BR(temp).Sum(in[threadIdx.x], valid);
  if (threadIdx.x == 0) out[1] = s;
}

// BlockReduce's Reduce with a functor: the default algorithm, and
// RAKING_COMMUTATIVE_ONLY's
template <int A = cub::BLOCK_REDUCE_WARP_REDUCTIONS>
__global__ void block_max_k(const int *in, int *out) {
  typedef cub::BlockReduce<int, 128, (cub::BlockReduceAlgorithm)A> BR;
  __shared__ typename BR::TempStorage temp;
  int m = BR(temp).Reduce(in[threadIdx.x], MaxOp());
  if (threadIdx.x == 0) *out = m;
}

template <int A>
__global__ void block_scan_k(const int *in, int *exc, int *inc) {
  typedef cub::BlockScan<int, 64, (cub::BlockScanAlgorithm)A> BS;
  __shared__ typename BS::TempStorage temp;
  int v = in[threadIdx.x], r;
  BS(temp).ExclusiveSum(v, r);
  exc[threadIdx.x] = r;
  __syncthreads();
  BS(temp).InclusiveSum(v, r);
  inc[threadIdx.x] = r;
}

// a tile of 64 threads x 4 items: loaded, doubled, stored
template <int L, int S>
__global__ void load_store_k(const int *in, int *out) {
  typedef cub::BlockLoad<int, 64, 4, (cub::BlockLoadAlgorithm)L> BL;
  typedef cub::BlockStore<int, 64, 4, (cub::BlockStoreAlgorithm)S> BSt;
  __shared__ union {
    typename BL::TempStorage load;
    typename BSt::TempStorage store;
  } temp;
  int items[4];
  BL(temp.load).Load(in, items);
  for (int i = 0; i < 4; i++) items[i] *= 2;
  __syncthreads();
  BSt(temp.store).Store(out, items);
}

// BlockRadixSort (keys; keys and values), BlockExchange, BlockHistogram,
// BlockDiscontinuity on a tile of 64 threads x 4 items
__global__ void sort_k(int *keys, int *vals) {
  typedef cub::BlockRadixSort<int, 64, 4, int> S;
  __shared__ typename S::TempStorage t;
  int k[4], v[4];
  for (int i = 0; i < 4; i++) k[i] = keys[threadIdx.x * 4 + i], v[i] = vals[threadIdx.x * 4 + i];
  S(t).Sort(k, v);
  for (int i = 0; i < 4; i++) keys[threadIdx.x * 4 + i] = k[i], vals[threadIdx.x * 4 + i] = v[i];
}

__global__ void exchange_k(const int *in, int *out) {
  typedef cub::BlockExchange<int, 64, 4> E;
  __shared__ typename E::TempStorage t;
  int k[4];
  for (int i = 0; i < 4; i++) k[i] = in[threadIdx.x * 4 + i];
  E(t).BlockedToStriped(k);
  for (int i = 0; i < 4; i++) out[i * 64 + threadIdx.x] = k[i];
}

__global__ void histogram_k(const unsigned char *in, unsigned *hist) {
  typedef cub::BlockHistogram<unsigned char, 64, 4, 16> H;
  __shared__ typename H::TempStorage t;
  __shared__ unsigned bins[16];
  unsigned char k[4];
  for (int i = 0; i < 4; i++) k[i] = in[threadIdx.x * 4 + i];
  H(t).Histogram(k, bins);
  __syncthreads();
  if (threadIdx.x < 16) hist[threadIdx.x] = bins[threadIdx.x];
}

__global__ void heads_k(const int *in, int *flags) {
  typedef cub::BlockDiscontinuity<int, 64> D;
  __shared__ typename D::TempStorage t;
  int k[4], f[4];
  for (int i = 0; i < 4; i++) k[i] = in[threadIdx.x * 4 + i];
  D(t).FlagHeads(f, k, cub::Inequality());
  for (int i = 0; i < 4; i++) flags[threadIdx.x * 4 + i] = f[i];
}

template <int B, int A> static void block_reduce(const int *in, int *out, const char *name) {
  int valid = B - B / 3 + 1;
  block_reduce_k<B, A><<<1, B>>>(in, out, valid);
  cudaDeviceSynchronize();
  int want = 0, part = 0;
  for (int i = 0; i < B; i++) want += in[i], part += i < valid ? in[i] : 0;
  CHECK(out[0] == want, "BlockReduce %s<%d>: %d, want %d", name, B, out[0], want);
  CHECK(out[1] == part, "BlockReduce %s<%d> of %d items: %d, want %d", name, B, valid, out[1], part);
}

template <int A> static void block_scan(const int *in, int *exc, int *inc, const char *name) {
  block_scan_k<A><<<1, 64>>>(in, exc, inc);
  cudaDeviceSynchronize();
  int s = 0, bad = 0;
  for (int i = 0; i < 64; i++) {
    bad += exc[i] != s;
    s += in[i];
    bad += inc[i] != s;
  }
  CHECK(!bad, "BlockScan %s: %d wrong", name, bad);
}

template <int L, int S> static void load_store(const int *in, int *out, const char *name) {
  for (int i = 0; i < N; i++) out[i] = -1;
  load_store_k<L, S><<<1, 64>>>(in, out);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < N; i++) bad += out[i] != 2 * in[i];
  CHECK(!bad, "BlockLoad/BlockStore %s: %d wrong", name, bad);
}

int main() {
  int *in, *a, *b, *c, *d;
  cudaMallocManaged(&in, N * sizeof(int));
  cudaMallocManaged(&a, N * sizeof(int));
  cudaMallocManaged(&b, N * sizeof(int));
  cudaMallocManaged(&c, N * sizeof(int));
  cudaMallocManaged(&d, N * sizeof(int));
  for (int i = 0; i < N; i++) in[i] = (i * 7919) % 101 - 20;

  warp_k<<<1, 64>>>(in, a, b, c, d);
  cudaDeviceSynchronize();
  for (int w = 0; w < 2; w++) {
    int s = 0, m = in[w * 32], bad = 0;
    for (int i = w * 32; i < w * 32 + 32; i++) {
      bad += b[i] != s;
      s += in[i];
      bad += a[i] != s;
      m = in[i] > m ? in[i] : m;
    }
    CHECK(!bad, "WarpScan warp %d: %d wrong", w, bad);
    CHECK(c[w] == s, "WarpReduce::Sum warp %d: %d, want %d", w, c[w], s);
    CHECK(d[w] == m, "WarpReduce::Reduce(max) warp %d: %d, want %d", w, d[w], m);
  }

  block_reduce<32, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, a, "WARP_REDUCTIONS");
  block_reduce<96, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, a, "WARP_REDUCTIONS");
  block_reduce<128, cub::BLOCK_REDUCE_RAKING>(in, a, "RAKING");
  // a full tile rakes in one warp; a partial one, or a block of one warp,
  // takes RAKING's path (the function returns its result there, early)
  block_reduce<128, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, a, "RAKING_COMMUTATIVE_ONLY");
  block_reduce<32, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, a, "RAKING_COMMUTATIVE_ONLY");

  block_max_k<<<1, 128>>>(in, a);
  block_max_k<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY><<<1, 128>>>(in, a + 1);
  cudaDeviceSynchronize();
  int m = in[0];
  for (int i = 0; i < 128; i++) m = in[i] > m ? in[i] : m;
  CHECK(a[0] == m, "BlockReduce::Reduce(max): %d, want %d", a[0], m);
  CHECK(a[1] == m, "BlockReduce<RAKING_COMMUTATIVE_ONLY>::Reduce(max): %d, want %d", a[1], m);

  block_scan<cub::BLOCK_SCAN_RAKING>(in, a, b, "RAKING");
  block_scan<cub::BLOCK_SCAN_RAKING_MEMOIZE>(in, a, b, "RAKING_MEMOIZE");
  block_scan<cub::BLOCK_SCAN_WARP_SCANS>(in, a, b, "WARP_SCANS");

  load_store<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(in, a, "DIRECT");
  load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(in, a, "WARP_TRANSPOSE");
  load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(in, a, "TRANSPOSE");

  // keys with repeats and negatives, values their positions: sorted by
  // key, each value still with its key
  for (int i = 0; i < N; i++) a[i] = in[i] * 3, b[i] = i;
  sort_k<<<1, 64>>>(a, b);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < N; i++) bad += (i && a[i - 1] > a[i]) || a[i] != in[b[i]] * 3;
  CHECK(!bad, "BlockRadixSort: %d wrong", bad);

  exchange_k<<<1, 64>>>(in, a);
  cudaDeviceSynchronize();
  bad = 0;
  for (int t = 0; t < 64; t++)
    for (int i = 0; i < 4; i++) bad += a[i * 64 + t] != in[i * 64 + t];
  CHECK(!bad, "BlockExchange::BlockedToStriped: %d wrong", bad);

  unsigned char *bytes;
  unsigned *hist;
  cudaMallocManaged(&bytes, N);
  cudaMallocManaged(&hist, 16 * sizeof(unsigned));
  unsigned want[16] = {0};
  for (int i = 0; i < N; i++) bytes[i] = (unsigned char)((i * 13 + i / 7) % 16), want[bytes[i]]++;
  histogram_k<<<1, 64>>>(bytes, hist);
  cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < 16; i++) bad += hist[i] != want[i];
  CHECK(!bad, "BlockHistogram: %d bins wrong", bad);

  for (int i = 0; i < N; i++) a[i] = i / 3 + (i % 7 == 0);
  heads_k<<<1, 64>>>(a, b);
  cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < N; i++) bad += b[i] != (i == 0 || a[i] != a[i - 1]);
  CHECK(!bad, "BlockDiscontinuity::FlagHeads: %d wrong", bad);

  if (fails) return 1;
  printf("PASSED\n");
  return 0;
}

// CUB's device-wide agents, the block-level engines of its device-wide
// algorithms, in kernels of the program's own (issue 23): cub::AgentReduce
// (grid-strided tiles, the block's reduction, a single-tile pass over the
// partials) and cub::AgentScan (a decoupled look-back scan across blocks
// through cub::ScanTileState), each against a CPU reference. What they need
// of cucc: a call to a function with barriers in an arm of ?: (AgentReduce's
// `return aligned ? ConsumeRange(..., Int2Type<true>()) : ConsumeRange(...)`),
// inline PTX written in a macro's body (ThreadLoad<LOAD_LDG>'s
// ld.global.nc), a member call on a temporary in an if's branch without
// braces next to a branch with barriers (AgentScan's
// `else BlockStoreT(temp).Store(...)`). cub::Device* do not run these (they
// run on Thrust's CPU system: docs/libraries.md).
#include <cub/agent/agent_reduce.cuh>
#include <cub/agent/agent_scan.cuh>
#include <cub/grid/grid_even_share.cuh>
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

typedef cub::AgentReducePolicy<256, 16, int, 4, cub::BLOCK_REDUCE_WARP_REDUCTIONS, cub::LOAD_LDG> ReducePolicy;
typedef cub::AgentReduce<ReducePolicy, const int *, int *, int, cub::Sum> Reducer;

__global__ void reduce_k(const int *in, int *out, cub::GridEvenShare<int> even_share) {
  __shared__ typename Reducer::TempStorage t;
  int agg = Reducer(t, in, cub::Sum()).ConsumeTiles(even_share);
  if (threadIdx.x == 0) out[blockIdx.x] = agg;
}

__global__ void reduce_single_k(const int *in, int *out, int n) {
  __shared__ typename Reducer::TempStorage t;
  int agg = Reducer(t, in, cub::Sum()).ConsumeRange(0, n);
  if (threadIdx.x == 0) *out = agg;
}

typedef cub::AgentScanPolicy<128, 15, int, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                             cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS>
    ScanPolicy;
typedef cub::ScanTileState<int> TileState;

__global__ void scan_init_k(TileState ts, int num_tiles) { ts.InitializeStatus(num_tiles); }

__global__ void scan_k(const int *in, int *out, TileState ts, int n) {
  typedef cub::AgentScan<ScanPolicy, const int *, int *, cub::Sum, int, int> Scanner;
  __shared__ typename Scanner::TempStorage t;
  Scanner(t, in, out, cub::Sum(), 0).ConsumeRange(n, ts, 0);
}

int main() {
  const int sizes[] = {1, 4097, 100003};
  int *in, *out, *part;
  cudaMallocManaged(&in, 100003 * sizeof(int));
  cudaMallocManaged(&out, 100003 * sizeof(int));
  cudaMallocManaged(&part, 1024 * sizeof(int));
  for (int i = 0; i < 100003; i++) in[i] = i % 7 - 3 + (i % 1000 == 0);
  for (int n : sizes) {
    long want = 0;
    for (int i = 0; i < n; i++) want += in[i];
    // offset by one item: the unaligned path (no vectorized loads) too
    for (int off = 0; off < 2 && off < n; off++) {
      cub::GridEvenShare<int> es;
      es.DispatchInit(n - off, 8, 256 * 16);
      reduce_k<<<es.grid_size, 256>>>(in + off, part, es);
      reduce_single_k<<<1, 256>>>(part, out, es.grid_size);
      cudaDeviceSynchronize();
      long w = want - (off ? in[0] : 0);
      CHECK(out[0] == (int)w, "AgentReduce(%d items from %d): %d, want %ld", n - off, off, out[0], w);
    }

    int tile = 128 * 15, num_tiles = (n + tile - 1) / tile;
    size_t bytes = 0;
    TileState::AllocationSize(num_tiles, bytes);
    void *storage;
    cudaMalloc(&storage, bytes);
    TileState ts;
    ts.Init(num_tiles, storage, bytes);
    scan_init_k<<<(num_tiles + 127) / 128, 128>>>(ts, num_tiles);
    scan_k<<<num_tiles, 128>>>(in, out, ts, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "AgentScan(%d) launch", n);
    long s = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) bad += out[i] != (int)s, s += in[i];
    CHECK(!bad, "AgentScan(%d items, %d tiles): %d wrong", n, num_tiles, bad);
    cudaFree(storage);
  }
  if (fails) return 1;
  printf("PASSED\n");
  return 0;
}

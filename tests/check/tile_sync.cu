// racecheck and cooperative groups: a tile's sync() (tiled_partition<32>
// and <16>, a coalesced group's) orders a warp's shared-memory accesses as
// __syncwarp() does. Their sync() is a device function of our
// cooperative_groups.h, run as scalar C: its __syncwarp was not counted, so
// every such exchange was a race (found by the held-out hunt).
// Usage: tile_sync [racy]: without the syncs, the race is reported.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(const int *in, int *out, bool racy) {
  __shared__ int s[64], u[64], v[64];
  int t = threadIdx.x;
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
  s[t] = in[t];
  if (!racy) t32.sync();
  int a = s[(t & ~31) + ((t + 5) & 31)];
  u[t] = a;
  if (!racy) t16.sync();
  int b = u[(t & ~15) + ((t + 3) & 15)];
  v[t] = b;
  cg::coalesced_group g = cg::coalesced_threads();
  if (!racy) g.sync();
  out[t] = v[t ^ 1];
}

int main(int argc, char **argv) {
  const int n = 64;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = i * 3;
  k<<<1, n>>>(in, out, argc > 1);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int t = 0; t < n; t++) {
    int x = t ^ 1, y = (x & ~15) + ((x + 3) & 15), z = (y & ~31) + ((y + 5) & 31);
    if (out[t] != in[z] && bad++ < 3) printf("thread %d: %d, want %d\n", t, out[t], in[z]);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

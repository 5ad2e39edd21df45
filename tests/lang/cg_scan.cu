// cooperative_groups/scan.h: cg::inclusive_scan and cg::exclusive_scan over tiles of 32, 8
// and 4 threads (plus by default, an associative op that does not commute, cg::greater)
// and over a coalesced group under a branch (issue 20: held-out hunt: "file not found").
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
struct Last { __device__ int operator()(int a, int b) const { return b ? b : a; } };   // associative, not commutative
__global__ void k(const int *in, int *out) {
  int t = threadIdx.x, v = in[t];
  auto b = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(b);
  auto t8 = cg::tiled_partition<8>(b);
  out[t] = cg::inclusive_scan(t32, v);
  out[64 + t] = cg::exclusive_scan(t8, v);
  out[128 + t] = cg::inclusive_scan(cg::tiled_partition<4>(b), v % 3, Last());
  out[192 + t] = cg::inclusive_scan(t32, v, cg::greater<int>());
  if (t % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    out[256 + t] = cg::exclusive_scan(g, v);
  } else out[256 + t] = -1;
}
int main() {
  int *in, *out; cudaMallocManaged(&in, 64 * 4); cudaMallocManaged(&out, 320 * 4);
  for (int i = 0; i < 64; i++) in[i] = (i * 7) % 11;
  k<<<1, 64>>>(in, out); cudaDeviceSynchronize();
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    int s = 0, e = 0, c = 0, m = -1, x = 0;
    for (int i = t & ~31; i <= t; i++) s += in[i], m = in[i] > m ? in[i] : m;
    for (int i = t & ~7; i < t; i++) e += in[i];
    for (int i = t & ~3; i <= t; i++) c = in[i] % 3 ? in[i] % 3 : c;
    for (int i = t & ~31; i < t; i++) if (i % 3 == 0) x += in[i];
    int w[5] = {s, e, c, m, t % 3 == 0 ? x : -1};
    for (int j = 0; j < 5; j++) if (out[64 * j + t] != w[j] && bad++ < 5) printf("t %d scan %d: %d want %d\n", t, j, out[64 * j + t], w[j]);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}

// A return (or a break out of an outer loop) under divergent control inside
// a loop whose own control is uniform: the lanes that leave in one iteration
// must stay out of the next. cooperative_groups' coalesced_group finds the
// lane of a rank with such a loop (`for (l...) if (mask >> l & 1) { if (r
// == 0) return l; r--; }`): with every lane of a warp active, every lane
// got the last lane's value, and a warp-aggregated atomicAdd (the CUDA
// blog's atomicAggInc) handed every lane the same slot (issue 20).
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ int nth(unsigned mask, unsigned r) {   // in a device function
  for (int l = 0; l < 32; l++)
    if (mask >> l & 1u) {
      if (r == 0) return l;
      r--;
    }
  return -1;
}

__global__ void in_kernel(int *out) {   // in a kernel, and out of a nest
  unsigned t = threadIdx.x;
  int r = t % 7;
  out[t] = nth(0xffffffffu, t % 5);
  for (int j = 0; j < 2; j++)
    for (int l = 0; l < 32; l++)
      if ((l & 1) || t > 1000) {
        if (r == 0) { out[64 + t] = 100 * j + l; return; }
        r--;
      }
  out[64 + t] = -1;
}

__device__ int agg_inc(int *ctr) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev = 0;
  if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
  return g.thread_rank() + g.shfl(prev, 0);
}

__global__ void filter(const int *in, int *out, int *n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len && in[i] > 0) out[agg_inc(n)] = in[i];
}

__global__ void group_shfl(int *out) {
  cg::coalesced_group g = cg::coalesced_threads();
  int v = threadIdx.x * 10;
  out[threadIdx.x] = g.shfl(v, 3) + g.shfl_down(v, 1) + g.shfl_up(v, 2);
}

int main() {
  int bad = 0, *out, *in, *n;
  CHECK(cudaMallocManaged(&out, 256 * sizeof(int)));
  CHECK(cudaMallocManaged(&in, 256 * sizeof(int)));
  CHECK(cudaMallocManaged(&n, sizeof(int)));
  in_kernel<<<1, 64>>>(out);
  CHECK(cudaDeviceSynchronize());
  for (int t = 0; t < 64; t++) {
    int r = t % 7, w = r < 16 ? 2 * r + 1 : 100 + 2 * (r - 16) + 1;
    if (out[t] != t % 5 && bad++ < 5) printf("nth: thread %d got %d, want %d\n", t, out[t], t % 5);
    if (out[64 + t] != w && bad++ < 5) printf("nest: thread %d got %d, want %d\n", t, out[64 + t], w);
  }
  for (int len = 64; len <= 96; len += 32) {   // every lane of a warp takes the branch; then some
    for (int i = 0; i < 256; i++) in[i] = i < len ? (len == 64 || i % 3 ? i + 1 : -1) : 0, out[i] = 0;
    *n = 0;
    filter<<<2, 64>>>(in, out, n, len);
    CHECK(cudaDeviceSynchronize());
    long want = 0, got = 0;
    int cnt = 0;
    for (int i = 0; i < len; i++) if (in[i] > 0) want += in[i], cnt++;
    for (int i = 0; i < 256; i++) got += out[i];
    if ((*n != cnt || got != want) && bad++ < 8) printf("filter %d: count %d sum %ld, want %d %ld\n", len, *n, got, cnt, want);
  }
  group_shfl<<<1, 64>>>(out);
  CHECK(cudaDeviceSynchronize());
  for (int t = 0; t < 64; t++) {
    int lane = t % 32, base = t - lane;
    int w = (base + 3) * 10 + (lane < 31 ? t + 1 : t) * 10 + (lane >= 2 ? t - 2 : t) * 10;
    if (out[t] != w && bad++ < 10) printf("group shfl: thread %d got %d, want %d\n", t, out[t], w);
  }
  if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

// warp_return.cu: `if (c) return;` at a kernel's start whose remaining
// lanes are a prefix of the warp (`if (i >= n) return;`, `if (x >= w || y
// >= h) return;`): the rest runs with the warp's live lanes cut to that
// prefix, as a partial warp (lower_return checks the lowered form). What
// follows is every kind of statement: stores, a divergent if, a loop, a
// divergent return, a shuffle among the lanes left, a vote, atomics, a
// device function; n leaves whole warps, partial warps and no lanes.
// Checked against the CPU; each program test also runs under every
// CUCC_VERSIONS setting (tests/run_test.cmake).
#include <cstdio>
#include <cstring>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ int twice(int v) { return v < 0 ? -2 * v : 2 * v; }

__global__ void after(const int *a, int *o, int *cnt, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flag) return;
  int x = a[i], r = twice(x);
  if (x % 3 == 0) r += 100;
  for (int k = 0; k < x % 4; k++) r += k;
  if (threadIdx.x % 4 == 0) r += 7;        // runs of lanes: no lane past the cut may take them
  if (threadIdx.x < 20) r += 3;
  r += threadIdx.x >= 9 ? 11 : 0;
  unsigned act = __activemask();
  r += __popc(act) * 1000;
  int s = __shfl_xor_sync(act, x, 1);   // (the partner left too when both are below n)
  if ((threadIdx.x ^ 1) < blockDim.x && (i ^ 1) < n) r += s * 100000;
  atomicAdd(cnt, 1);
  if (x % 5 == 0) return;
  o[i] = r;
}

// after the return, device functions with warp collectives (a coalesced
// group's ballot, a helper's shuffle): they must see only the lanes left
// (cdpAdvancedQuicksort's qsort_warp)
__device__ int left_sum(int v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(__activemask(), v, o);
  return v;
}
__global__ void after_cg(int *o, unsigned n) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= n) return;
  cg::coalesced_group active = cg::coalesced_threads();
  unsigned b = active.ballot(t % 3 == 0);
  int s = left_sum(1);
  o[t] = __popc(b) * 1000 + (threadIdx.x % 32 == 0 ? s : 0);
}

__global__ void grid2(int *o, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int v = x + 1000 * y;
  if (x > 3) v = -v;
  o[y * w + x] = v;
}

static int fails;

int main() {
  int *a, *o, *cnt;
  cudaMallocManaged(&a, 4096 * sizeof(int));
  cudaMallocManaged(&o, 4096 * sizeof(int));
  cudaMallocManaged(&cnt, sizeof(int));
  for (int i = 0; i < 4096; i++) a[i] = (i * 7919) % 101 - 20;
  int shapes[][2] = {{4, 64}, {3, 96}, {2, 1024}, {5, 48}, {3, 40}};
  for (auto &s : shapes)
    for (int flag = 0; flag < 2; flag++)
      for (int n : {0, 1, 31, 33, 100, s[0] * s[1]}) {
        int total = s[0] * s[1];
        if (n > total) continue;
        memset(o, 0x7f, total * sizeof(int));
        *cnt = 0;
        after<<<s[0], s[1]>>>(a, o, cnt, n, flag);
        cudaDeviceSynchronize();
        int want_cnt = flag ? n : 0;
        if (*cnt != want_cnt && fails++ < 10) printf("FAIL: <<<%d, %d>>> n %d: %d threads counted, want %d\n", s[0], s[1], n, *cnt, want_cnt);
        for (int i = 0; i < total; i++) {
          int x = a[i], want = 0x7f7f7f7f;
          if (i < n && flag && x % 5 != 0) {
            int r = x < 0 ? -2 * x : 2 * x;
            if (x % 3 == 0) r += 100;
            for (int k = 0; k < x % 4; k++) r += k;
            int t = i % s[1];
            if (t % 4 == 0) r += 7;
            if (t < 20) r += 3;
            r += t >= 9 ? 11 : 0;
            int wb = i - i % s[1] % 32, left = 0;   // lanes of i's warp (in its block) that did not return
            for (int l = wb; l < wb + 32 && l < (i / s[1] + 1) * s[1]; l++) left += l < n;
            r += left * 1000;
            if (((i % s[1]) ^ 1) < s[1] && (i ^ 1) < n) r += a[i ^ 1] * 100000;
            want = r;
          }
          if (o[i] != want && fails++ < 10) printf("FAIL: <<<%d, %d>>> n %d flag %d: o[%d] = %d, want %d\n", s[0], s[1], n, flag, i, o[i], want);
        }
      }
  for (unsigned n : {0u, 5u, 40u, 100u, 128u}) {
    memset(o, 0x7f, 128 * sizeof(int));
    after_cg<<<2, 64>>>(o, n);
    cudaDeviceSynchronize();
    for (unsigned t = 0; t < 128; t++) {
      int want = 0x7f7f7f7f;
      if (t < n) {
        unsigned wb = t / 32 * 32, left = 0, thirds = 0;
        for (unsigned l = wb; l < wb + 32; l++) left += l < n, thirds += l < n && l % 3 == 0;
        want = thirds * 1000 + (t % 32 == 0 ? (int)left : 0);
      }
      if (o[t] != want && fails++ < 10) printf("FAIL: after_cg n %u: o[%u] = %d, want %d\n", n, t, o[t], want);
    }
  }
  dim3 blocks[] = {dim3(32, 4), dim3(64, 2), dim3(16, 16), dim3(8, 8)};
  for (auto &bl : blocks) {
    int w = 70, h = 45;
    memset(o, 0x7f, w * h * sizeof(int));
    grid2<<<dim3((w + bl.x - 1) / bl.x, (h + bl.y - 1) / bl.y), bl>>>(o, w, h);
    cudaDeviceSynchronize();
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int want = x > 3 ? -(x + 1000 * y) : x + 1000 * y;
        if (o[y * w + x] != want && fails++ < 10) printf("FAIL: grid2 %ux%u: (%d, %d) = %d, want %d\n", bl.x, bl.y, x, y, o[y * w + x], want);
      }
  }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

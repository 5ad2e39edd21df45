// warp_conj.cu: conditions that are conjunctions of lane comparisons and
// terms the same in every lane (`t == 0 && blockIdx.x == 0`, `i > 0 &&
// i < n - 1 && j > 0 && j < m - 1`, `p && p[0] > 0 && t < n`): their lanes
// are a run the lowering counts once per warp (lower_conj checks it does).
// Every form, with the row terms true and false, in partial warps, 1-D
// blocks (block-wide and whole-row versions) and 2-D ones, against a CPU
// reference. A row term that reads memory is read only where C would read
// it: `q && q[0] > 0` with q null never reads.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void conj1(int *out, int n, int flag, const int *q) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = 0;
  out[i] = 0;   // (the ifs store to memory: an if of the lanes' own scalars is a select)
  if (t == 0 && blockIdx.x == 1) out[i] |= 1;                  // one lane and a row term
  if (i < n && flag) out[i] |= 2;                              // a prefix, the row term after
  if (flag > 1 && i >= 7) out[i] |= 4;                         // the row term first, a suffix
  if (i > 5 && i < n - 3) out[i] |= 8;                         // an interval
  if (flag && i >= 40 && t <= 50 && blockIdx.x < 2) out[i] |= 16;   // an interval between row terms
  if (q && q[0] > 2 && t < 33) out[i] |= 32;                   // row terms reading memory only past a null test
  if (i < n && flag) out[i] |= 64; else out[i] |= 128;              // with an else
  v |= i >= n - 9 ? 256 : 512;                            // a ?: whose first arm's lanes are a suffix
  v |= t < 20 ? 1024 : 2048;                              // ... a prefix
  out[i] |= v;
}

__global__ void conj2(int *out, int w, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= w || j >= h) return;
  int v = 0;
  if (i > 0 && i < w - 1 && j > 0 && j < h - 1) v = 1;   // a stencil's interior
  out[j * w + i] = v;
}

// 64-bit lane values: a size_t grid-stride loop, and long long bounds far
// beyond 32 bits (their difference with the lane value saturates)
__global__ void loop64(int *out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) out[i] = 1;
}

__global__ void conj64(int *out, size_t n, long long lo, long long hi, unsigned long long big) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  long long j = (long long)i - 40;
  if (j >= lo && j < hi) out[i] |= 2;   // (i below 4096: out's size)
  if ((unsigned long long)i < big) out[i] |= 4;
  if (j > -(1ll << 62) && i < n) out[i] |= 8;
}

static int fails;
static void check(const char *what, int got, int want, int at) {
  if (got != want && fails++ < 10) printf("FAIL: %s at %d: %d, want %d\n", what, at, got, want);
}

int main() {
  int *out, *q;
  cudaMallocManaged(&out, 4096 * sizeof(int));
  cudaMallocManaged(&q, sizeof(int));
  *q = 3;
  int shapes[][2] = {{3, 64}, {2, 96}, {3, 48}, {1, 1024}, {4, 40}};
  for (auto &s : shapes)
    for (int flag = 0; flag < 3; flag++)
      for (int useq = 0; useq < 2; useq++) {
        int g = s[0], b = s[1], total = g * b, n = total - 5;
        memset(out, 0xff, total * sizeof(int));
        conj1<<<g, b>>>(out, n, flag, useq ? q : nullptr);
        cudaDeviceSynchronize();
        for (int i = 0; i < total; i++) {
          int t = i % b, bx = i / b, v = 0;
          if (t == 0 && bx == 1) v |= 1;
          if (i < n && flag) v |= 2;
          if (flag > 1 && i >= 7) v |= 4;
          if (i > 5 && i < n - 3) v |= 8;
          if (flag && i >= 40 && t <= 50 && bx < 2) v |= 16;
          if (useq && *q > 2 && t < 33) v |= 32;
          v |= (i < n && flag) ? 64 : 128;
          v |= i >= n - 9 ? 256 : 512;
          v |= t < 20 ? 1024 : 2048;
          check("conj1", out[i], v, i);
        }
      }
  dim3 blocks[] = {dim3(32, 4), dim3(16, 16), dim3(64, 2), dim3(8, 8)};
  for (auto &bl : blocks) {
    int w = 70, h = 45;
    memset(out, 0xff, w * h * sizeof(int));
    conj2<<<dim3((w + bl.x - 1) / bl.x, (h + bl.y - 1) / bl.y), bl>>>(out, w, h);
    cudaDeviceSynchronize();
    for (int j = 0; j < h; j++)
      for (int i = 0; i < w; i++) check("conj2", out[j * w + i], i > 0 && i < w - 1 && j > 0 && j < h - 1, j * w + i);
  }
  long long bounds[][2] = {{-5, 100}, {-(1ll << 40), 1ll << 40}, {3000, -3000}, {0, 1}};
  unsigned long long bigs[] = {5, 1ull << 63, ~0ull, 1000};
  for (auto &s : shapes)
    for (int k = 0; k < 4; k++) {
      size_t n = 3000 + k * 17;
      memset(out, 0xff, 4096 * sizeof(int));
      loop64<<<s[0], s[1]>>>(out, n);
      cudaDeviceSynchronize();
      conj64<<<(4096 + s[1] - 1) / s[1], s[1]>>>(out, n, bounds[k][0], bounds[k][1], bigs[k]);
      cudaDeviceSynchronize();
      for (size_t i = 0; i < 4096; i++) {
        long long j = (long long)i - 40;
        int v = (i < n ? 1 | 8 : -1) | (j >= bounds[k][0] && j < bounds[k][1] ? 2 : 0) | (i < bigs[k] ? 4 : 0);
        check("conj64", out[i], v, (int)i);
      }
    }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

// lane_logic.cu: a lane's && and || print without a branch (as & and |)
// where the right side may be evaluated in every lane; where it may not,
// the source's order holds: a right side that divides by a lane's 0, reads
// through a lane's null pointer or an index the left side bounds, calls a
// function with an effect, or stores, runs only where C runs it. Every
// form in 1-D blocks (whole-row and block-wide versions), 16 x 16 blocks
// (half rows) and partial warps, against a CPU reference.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ __host__ int bump(int *c, int x) { *c += 10; return x & 1; }

// (a macro, so that the conditions stand in the kernels themselves, where
// each is a lane loop's, and in the CPU reference)
#define LOGIC(v, i, t, n, d, p, a, side)                                            \
  do {                                                                              \
    v = 0;                                                                          \
    if (i > 3 && i < n - 3) v |= 1;                 /* an interval */               \
    if (t < 5 || t > 27) v |= 2;                    /* || */                        \
    if (!(i & 1) && (t % 3 == 0 || t > 20)) v |= 4; /* nested, % by a constant */   \
    if (d != 0 && 100 / d > 7) v |= 8;              /* division by a lane's 0 */    \
    if (d == 0 || 60 % d == 0) v |= 16;             /* ... under || */              \
    if (p && *p > 0) v |= 32;                       /* a lane's null pointer */     \
    if (i < n && a[i] > 2) v |= 64;                 /* an index the left bounds */  \
    if ((i & 3) == 0 && bump(side, i)) v |= 128;    /* a call with an effect */     \
    if (t > 9 && (*side += 1) > 0) v |= 256;        /* a store */                   \
    float f = i * 0.5f;                                                             \
    if (f > 2.0f && f < 40.0f) v |= 512;            /* floats */                    \
  } while (0)

__global__ void k1(int *out, int n, const int *a, const int *pv, int *side) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int d = i % 4 == 1 ? 0 : i % 7 + 1;
  const int *p = i % 3 == 0 ? nullptr : pv + (i % 5);
  if (i < n + 6) {
    int v;
    LOGIC(v, i, t, n, d, p, a, &side[i]);
    out[i] = v;
  }
}

__global__ void k2(int *out, int w, int h, int n, const int *a, const int *pv, int *side) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int i = y * w + x;
  int t = threadIdx.x, d = x - 5, v = -1;
  const int *p = x & 1 ? pv : nullptr;
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1) LOGIC(v, i, t, n, d, p, a, &side[i]);
  out[i] = v;
}

static int fails;
static void check(const char *what, const int *got, const int *want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("%s: [%d] = %d, expected %d\n", what, i, got[i], want[i]);
      if (++fails > 10) return;
    }
}

int main() {
  const int N = 1000, W = 48, H = 40, M = 2048;
  int *a, *pv, *out, *side, *h_out = new int[M], *h_side = new int[M];
  int *want = new int[M], *wside = new int[M], *ha = new int[M];
  cudaMalloc(&a, sizeof(int) * N);
  cudaMalloc(&pv, sizeof(int) * 8);
  cudaMalloc(&out, sizeof(int) * M);
  cudaMalloc(&side, sizeof(int) * M);
  int hpv[8] = {3, -1, 0, 5, 2, 0, 0, 0};
  for (int i = 0; i < N; i++) ha[i] = i % 6;
  cudaMemcpy(a, ha, sizeof(int) * N, cudaMemcpyHostToDevice);
  cudaMemcpy(pv, hpv, sizeof hpv, cudaMemcpyHostToDevice);
  const int blocks[] = {32, 64, 96, 256, 40, 1000};
  for (int b : blocks) {
    int n = N - 6, m = n + 6, nb = (m + b - 1) / b;
    cudaMemset(out, 0, sizeof(int) * M);
    cudaMemset(side, 0, sizeof(int) * M);
    k1<<<nb, b>>>(out, n, a, pv, side);
    cudaMemcpy(h_out, out, sizeof(int) * m, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_side, side, sizeof(int) * m, cudaMemcpyDeviceToHost);
    memset(wside, 0, sizeof(int) * m);
    for (int i = 0; i < m; i++) {
      int t = i % b, d = i % 4 == 1 ? 0 : i % 7 + 1;
      const int *p = i % 3 == 0 ? nullptr : hpv + (i % 5);
      LOGIC(want[i], i, t, n, d, p, ha, &wside[i]);
    }
    char what[64];
    snprintf(what, sizeof what, "k1 <<<%d, %d>>>", nb, b);
    check(what, h_out, want, m);
    check(what, h_side, wside, m);
  }
  cudaMemset(side, 0, sizeof(int) * M);
  k2<<<dim3(W / 16, H / 8), dim3(16, 8)>>>(out, W, H, N, a, pv, side);
  cudaMemcpy(h_out, out, sizeof(int) * W * H, cudaMemcpyDeviceToHost);
  memset(wside, 0, sizeof(int) * W * H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int i = y * W + x;
      int t = x % 16, d = x - 5, n = N;
      const int *p = x & 1 ? hpv : nullptr;
      want[i] = -1;
      if (x > 0 && x < W - 1 && y > 0 && y < H - 1) LOGIC(want[i], i, t, n, d, p, ha, &wside[i]);
    }
  cudaMemcpy(h_side, side, sizeof(int) * W * H, cudaMemcpyDeviceToHost);
  check("k2 16 x 8", h_out, want, W * H);
  check("k2 16 x 8", h_side, wside, W * H);
  if (cudaGetLastError() != cudaSuccess) printf("CUDA error\n"), fails++;
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

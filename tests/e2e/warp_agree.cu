// warp_agree.cu: divergent ifs whose warps often agree. The lowering runs a
// branch with no mask when every live lane of a warp takes it, and under a
// mask when the warp splits; this checks both against a CPU reference, with
// whole-row blocks (64x2), half rows (16x8), odd shapes (33x3, 7x5x3) and a
// partial last warp, conditions that are all/none/some per warp, else
// branches, uniform effects inside a branch, and ifs inside uniform loops.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 6

__global__ void agree(const int *a, int *o, int *blk, int n, int s) {
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int i = blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + t;
  if (i >= n) return;
  int x = a[i], *r = o + i * K;
  r[0] = 0;
  if (t < s) r[0] = x + 1;                        // whole warps below s, one split warp
  if (t >= s) r[1] = x * 2; else r[1] = -x;       // else branch, same split
  int v = 0;
  for (int k = 0; k < 4; k++) {                   // uniform loop around a varying if
    if ((t >> 5) % 2 == k % 2) v += k * x;        // warps agree (when rows are whole)
    else v -= 1;
  }
  r[2] = v;
  if (x > 1000000) r[3] = 1; else r[3] = 2;       // never true: the else runs unmasked
  if (t < s) blk[blockIdx.x] = s;                 // uniform store under a varying if
  int ry = threadIdx.y * 100 + threadIdx.z;   // one value per whole-row warp
  int rx = ry + threadIdx.x - threadIdx.x;     // still that value
  r[4] = rx;
  int q = 0;                                      // every comparison form, both ways round
  if (s > t) q += 1;
  if (t <= s) q += 2;
  if (t > s) q += 4;
  if (s <= t) q += 8;
  if (i - 3 >= s) q += 16;
  if ((unsigned)t < (unsigned)s) q += 32;
  if (t == s) q += 128;                           // one lane (or none) of one warp
  if (s == i - 3) q += 256; else q += 512;        // == with an else: masks
  int m = s > 0 ? s : 3 - s;                      // every m-th lane
  if (t % m == 0) q += 1024;
  if (0 == (i - 3) % m) q += 2048;                // negative remainders too
  if ((unsigned)t % (unsigned)(m + 1) == 0) q += 4096;
  r[5] = q;
  if (t == s) blk[gridDim.x + blockIdx.x] = 1000; // uniform effect in a one-lane run
}

// the same comparisons inside a bounds guard (nested divergent ifs)
__global__ void agree2(int *o, int n, int s) {
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int i = blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + t;
  int m = s > 0 ? s : 3 - s;                      // uniform: every m-th lane below
  if (i < n) {
    int q = 0;
    if (s > t) q += 1;
    if (t <= s) q += 2;
    if (t > s) { q += 4; if (t < s + 8) q += 64; }
    if (s <= t) q += 8;
    if (i - 3 >= s) q += 16;
    if ((unsigned)t < (unsigned)s) q += 32;
    if (t == s) q += 128;
    if (s == i - 3) q += 256; else q += 512;
    if (t % m == 0) q += 1024;
    if (0 == (i - 3) % m) q += 2048;
    if ((unsigned)t % (unsigned)(m + 1) == 0) q += 4096;
    o[i * K + 5] = q;
  }
}

// a short uniform loop with per-lane work only: it runs inside the lane loop
__global__ void inner(const int *a, int *o, int n) {
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int i = blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + t;
  int acc = 0, acc2 = 1;
  for (int k = 0; k < 12; ++k) {
    int kk = k * 3;
    acc += a[(i + kk) % n] * (k + 1);
    acc += i + k < n ? a[i + k] : 7;            // bounds test as ?: (plain loads where all lanes pass)
    if (k % 2 == 0) acc2 = acc2 * 3 % 1000003 + threadIdx.y;
    for (int j = 0; j < 3; j++) acc2 += j * k;
  }
  int last = i + 1 < n ? a[i + 1] : 5;            // the same outside a loop
  if (i < n) o[i * K + 5] = (acc + last) ^ acc2;
}

static int inner_host(const int *a, int n, int i, int ty) {
  int acc = 0, acc2 = 1;
  for (int k = 0; k < 12; ++k) {
    acc += a[(i + k * 3) % n] * (k + 1);
    acc += i + k < n ? a[i + k] : 7;
    if (k % 2 == 0) acc2 = acc2 * 3 % 1000003 + ty;
    for (int j = 0; j < 3; j++) acc2 += j * k;
  }
  return (acc + (i + 1 < n ? a[i + 1] : 5)) ^ acc2;
}

static void host(const int *a, int *o, int *blk, int n, int s, int nb, int bx, int by, int bz) {
  int bt = bx * by * bz;
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < bt; t++) {
      int i = b * bt + t;
      if (i >= n) continue;
      int x = a[i], *r = o + i * K;
      r[0] = t < s ? x + 1 : 0;
      r[1] = t >= s ? x * 2 : -x;
      int v = 0;
      for (int k = 0; k < 4; k++) v += ((t >> 5) % 2 == k % 2) ? k * x : -1;
      r[2] = v;
      r[3] = 2;
      if (t < s) blk[b] = s;
      if (t == s) blk[nb + b] = 1000;
      r[4] = (t / bx) % by * 100 + t / (bx * by);
      r[5] = (s > t) + 2 * (t <= s) + 4 * (t > s) + 8 * (s <= t) + 16 * (i - 3 >= s) + 32 * ((unsigned)t < (unsigned)s) +
             128 * (t == s) + (i - 3 == s ? 256 : 512);
      int m = s > 0 ? s : 3 - s;
      r[5] += 1024 * (t % m == 0) + 2048 * ((i - 3) % m == 0) + 4096 * ((unsigned)t % (unsigned)(m + 1) == 0);
    }
}

int main() {
  const int shapes[][3] = {{64, 2, 1}, {16, 8, 1}, {33, 3, 1}, {7, 5, 3}, {32, 1, 1}, {96, 1, 1}};
  const int splits[] = {0, 5, 31, 32, 33, 40, 64, 1000, -7};
  int bad = 0, runs = 0;
  for (const auto &sh : shapes)
    for (int s : splits) {
      int bt = sh[0] * sh[1] * sh[2], nb = 5, n = nb * bt - 3;   // last warp partial
      int *a = (int *)malloc(n * sizeof(int)), *o = (int *)calloc((size_t)n * K, sizeof(int)),
          *r = (int *)calloc((size_t)n * K, sizeof(int)), hb[10] = {0}, rb[10] = {0};
      for (int i = 0; i < n; i++) a[i] = (i * 37) % 101 - 50;
      int *da, *dO, *db;
      CHECK(cudaMalloc(&da, n * sizeof(int)));
      CHECK(cudaMalloc(&dO, (size_t)n * K * sizeof(int)));
      CHECK(cudaMalloc(&db, sizeof hb));
      CHECK(cudaMemcpy(da, a, n * sizeof(int), cudaMemcpyHostToDevice));
      CHECK(cudaMemset(dO, 0, (size_t)n * K * sizeof(int)));
      CHECK(cudaMemset(db, 0, sizeof hb));
      agree<<<nb, dim3(sh[0], sh[1], sh[2])>>>(da, dO, db, n, s);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(o, dO, (size_t)n * K * sizeof(int), cudaMemcpyDeviceToHost));
      int *q = (int *)malloc((size_t)n * K * sizeof(int));
      agree2<<<nb, dim3(sh[0], sh[1], sh[2])>>>(dO, n, s);
      CHECK(cudaMemcpy(q, dO, (size_t)n * K * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; i++) {
        int t = i % bt, want = o[i * K + 5] + 64 * (t > s && t < s + 8);
        if (q[i * K + 5] != want && bad++ < 5) printf("agree2 (%d,%d,%d) s=%d: i=%d: %d, want %d\n", sh[0], sh[1], sh[2], s, i, q[i * K + 5], want);
      }
      inner<<<nb, dim3(sh[0], sh[1], sh[2])>>>(da, dO, n);
      CHECK(cudaMemcpy(q, dO, (size_t)n * K * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; i++) {
        int want = inner_host(a, n, i, (i % bt) / sh[0] % sh[1]);
        if (q[i * K + 5] != want && bad++ < 5) printf("inner (%d,%d,%d): i=%d: %d, want %d\n", sh[0], sh[1], sh[2], i, q[i * K + 5], want);
      }
      free(q);
      CHECK(cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost));
      host(a, r, rb, n, s, nb, sh[0], sh[1], sh[2]);
      for (int i = 0; i < n * K; i++)
        if (o[i] != r[i]) {
          if (bad++ < 5) printf("block (%d,%d,%d) s=%d: out[%d] = %d, want %d\n", sh[0], sh[1], sh[2], s, i, o[i], r[i]);
        }
      for (int b = 0; b < 2 * nb; b++)
        if (hb[b] != rb[b] && bad++ < 5) printf("block (%d,%d,%d) s=%d: blk[%d] = %d, want %d\n", sh[0], sh[1], sh[2], s, b, hb[b], rb[b]);
      runs++;
      cudaFree(da); cudaFree(dO); cudaFree(db);
      free(a); free(o); free(r);
    }
  printf("%d shapes x splits checked, %d mismatches\n%s\n", runs, bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}

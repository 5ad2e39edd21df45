// warp_split.cu: a warp and its lane split out of a thread index, however
// it is spelled (issue 20): `t / 32` and `t % 32`, `t >> 5` and `t & 31`,
// warpSize, 64, unsigned and signed, and the spellings where the split
// does not hold (`(t + 16) / 32`, `t / 16`, negative values). In whole-row
// warps the warp is the same in every lane and the lane is base + lane;
// loads at a warp's address are one value for the warp (a row's bounds in
// a warp-per-row sparse product). Each kernel runs under block shapes that
// take every version of a region (1-D whole warps, whole-row 2-D, half
// rows, partial warps), checked against the CPU.
#include <cstdio>
#include <cstdlib>

#define GT (blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x)

// every spelling of the split, as plain arithmetic: no warp semantics
__global__ void spell(int *out) {
  int t = GT;
  unsigned u = GT;
  int s = t - 64;   // negative in the first 64 threads
  int *o = out + 16 * t;
  // (each in a variable: its shape is what the lowering decides by)
  int a0 = t / 32, a1 = t % 32, a2 = t >> 5, a3 = t & 31;
  int a4 = t / warpSize + 1000 * (t % warpSize);
  int a5 = t / 64 + 1000 * (t & 63);
  unsigned a6 = u / 32u + 1000u * (u % 32u);
  int a7 = (t + 16) / 32, a8 = t / 16 + 1000 * (t % 16), a9 = (t - 1) / 32;
  int a10 = s / 32, a11 = s % 32, a12 = s >> 5, a13 = s & 31;
  int a14 = (t & (32 - 1)) + 100 * (t >> 6);
  int a15 = (int)(threadIdx.x / 32) * 7 + (int)(threadIdx.x % 32);
  o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3; o[4] = a4; o[5] = a5; o[6] = (int)a6; o[7] = a7;
  o[8] = a8; o[9] = a9; o[10] = a10; o[11] = a11; o[12] = a12; o[13] = a13; o[14] = a14; o[15] = a15;
  if (a10 == -2) o[10] += 10000;   // (a condition on a value the same in the warp, or not)
  if (a7 == 1) o[7] += 10000;
}
static void spell_cpu(int t, int *o) {
  unsigned u = t;
  int s = t - 64;
  o[0] = t / 32; o[1] = t % 32; o[2] = t >> 5; o[3] = t & 31;
  o[4] = t / 32 + 1000 * (t % 32);
  o[5] = t / 64 + 1000 * (t & 63);
  o[6] = (int)(u / 32u + 1000u * (u % 32u));
  o[7] = (t + 16) / 32;
  o[8] = t / 16 + 1000 * (t % 16);
  o[9] = (t - 1) / 32;
  o[10] = s / 32; o[11] = s % 32; o[12] = s >> 5; o[13] = s & 31;
  o[14] = (t & 31) + 100 * (t >> 6);
  if (o[10] == -2) o[10] += 10000;
  if (o[7] == 1) o[7] += 10000;
}

// one warp per row (CSR): the row's bounds loaded once per warp, lanes
// striding through it, a shuffle sum, lane 0 writes
__global__ void rows(int nrows, const int *ptr, const int *val, int *out) {
  int t = GT;
  int warp = t / 32, lane = t & 31;
  if (warp < nrows) {
    int s = 0;
    for (int j = ptr[warp] + lane; j < ptr[warp + 1]; j += 32) s += val[j];
    for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(0xffffffff, s, m);
    if (lane == 0) out[warp] = s;
    if (lane == 31) out[nrows + warp] = s * 2;
  }
}

// the same with the warps past the last row returning (the whole warp or
// none of it), the row reached through pointers the same in every lane
__global__ void rows_ret(int nrows, const int *ptr, const int *val, int *out) {
  int warp = GT / 32, lane = GT % 32;
  if (warp >= nrows) return;
  const int *v = val + ptr[warp];
  int n = ptr[warp + 1] - ptr[warp], s = 0;
  for (int j = lane; j < n; j += 32) s += v[j];
  for (int m = 16; m > 0; m /= 2) s += __shfl_down_sync(0xffffffff, s, m);
  int *o = out + warp;
  if (lane == 0) *o = s;
  o[nrows] = lane;   // (every lane stores: the last one's lane is 31)
}

// a warp's own slice of shared memory, rotated by one lane; a condition
// and a loop bound loaded at the warp's address
__global__ void slices(const int *flag, const int *cnt, int *out) {
  __shared__ int buf[32][32];
  int w = threadIdx.x / warpSize, l = threadIdx.x % warpSize;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  buf[w][l] = t * 3;
  __syncwarp();
  int r = buf[w][(l + 1) % 32];
  if (flag[t / 32]) r += 1;
  for (int k = 0; k < cnt[t >> 5]; k++) r += k;
  if (l < 16) r = -r;
  out[t] = r;
}

// no collectives, no barriers: a region the whole block could run as one
// row of lanes, were it not for the warp it splits out
__global__ void blockwide(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int w = threadIdx.x >> 5, l = threadIdx.x & 31;
  out[t] = w * 10 + l * 1000;
}

// shuffles of whole warps by a uniform offset, every offset from 0 to 33
// (past the warp: a lane keeps its own value), width 32 spelled or not
__global__ void shuffles(int d, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = t * 7 + 1;
  int *o = out + 6 * t;
  o[0] = __shfl_down_sync(0xffffffff, v, d);
  o[1] = __shfl_up_sync(0xffffffff, v, d, 32);
  o[2] = __shfl_xor_sync(0xffffffff, v, d);
  o[3] = __shfl_sync(0xffffffff, v, d);
  double x = t * 0.5;
  o[4] = (int)(2 * __shfl_down_sync(0xffffffff, x, d, warpSize));
  o[5] = (int)(2 * __shfl_up_sync(0xffffffff, x, d));
}
static void shuffles_cpu(int t, int d, int *o) {
  int l = t % 32, b = t - l;
  int u = l + d < 32 ? l + d : l, w = l - d >= 0 ? l - d : l, x = (l ^ d) < 32 ? l ^ d : l;
  o[0] = (b + u) * 7 + 1;
  o[1] = (b + w) * 7 + 1;
  o[2] = (b + x) * 7 + 1;
  o[3] = (b + d % 32) * 7 + 1;
  o[4] = b + u;
  o[5] = b + w;
}

// the split behind device functions whose body is one return (a tile's
// thread_rank(), a lane() helper): their shape is their expression's
__device__ unsigned flat_tid() { return threadIdx.x + blockDim.x * threadIdx.y; }
__device__ unsigned lane_of() { return flat_tid() & 31u; }
__device__ unsigned warp_of(unsigned t) { return t / warpSize; }
__global__ void helpers(int *out) {
  unsigned r = lane_of(), w = warp_of(flat_tid());
  int t = blockIdx.x * (blockDim.x * blockDim.y) + flat_tid();
  if (w == 1) out[t] = 1000 + r;
  else out[t] = (int)(w * 10 + r);
}

static int fails;
static void expect(const char *what, bool ok) {
  if (!ok && fails++ < 10) printf("FAIL %s\n", what);
}

int main() {
  const int T = 3072, R = 40;
  int *out, *ptr, *val, *flag, *cnt;
  cudaMallocManaged(&out, 16 * T * sizeof(int));
  cudaMallocManaged(&ptr, (R + 1) * sizeof(int));
  cudaMallocManaged(&flag, T / 32 * sizeof(int));
  cudaMallocManaged(&cnt, T / 32 * sizeof(int));
  ptr[0] = 0;
  for (int r = 0; r < R; r++) ptr[r + 1] = ptr[r] + (r * 37) % 71;   // 0..70 per row
  cudaMallocManaged(&val, ptr[R] * sizeof(int));
  for (int j = 0; j < ptr[R]; j++) val[j] = (j * 7919) % 1009 - 500;
  for (int w = 0; w < T / 32; w++) flag[w] = w % 3 == 1, cnt[w] = w % 5;
  dim3 shapes[] = {dim3(64), dim3(96), dim3(256), dim3(32, 2), dim3(16, 4), dim3(64, 3), dim3(33), dim3(8, 3)};
  for (dim3 b : shapes) {
    int nt = b.x * b.y, nb = T / nt;
    char tag[64];
    snprintf(tag, sizeof tag, "block %ux%u", b.x, b.y);
    spell<<<nb, b>>>(out);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int t = 0; t < nb * nt; t++) {
      int e[16];
      spell_cpu(t, e);
      unsigned tx = (t % nt) % b.x;
      e[15] = (int)(tx / 32) * 7 + (int)(tx % 32);
      for (int i = 0; i < 16; i++)
        if (out[16 * t + i] != e[i]) {
          if (ok) printf("%s: thread %d, spelling %d: %d, expected %d\n", tag, t, i, out[16 * t + i], e[i]);
          ok = false;
        }
    }
    expect(tag, ok);
    helpers<<<nb, b>>>(out);
    cudaDeviceSynchronize();
    ok = true;
    for (int t = 0; t < nb * nt; t++) {
      int x = t % nt, w = x / 32, r = x % 32;
      ok &= out[t] == (w == 1 ? 1000 + r : w * 10 + r);
    }
    expect(tag, ok);
    if (nt % 32) continue;   // (warps of whole rows of the grid below)
    int nbr = (R * 32 + nt - 1) / nt;
    rows<<<nbr, b>>>(R, ptr, val, out);
    cudaDeviceSynchronize();
    ok = true;
    for (int r = 0; r < R; r++) {
      int s = 0;
      for (int j = ptr[r]; j < ptr[r + 1]; j++) s += val[j];
      ok &= out[r] == s && out[R + r] == 2 * s;
    }
    expect(tag, ok);
    rows_ret<<<nbr + 2, b>>>(R, ptr, val, out);
    cudaDeviceSynchronize();
    ok = true;
    for (int r = 0; r < R; r++) {
      int s = 0;
      for (int j = ptr[r]; j < ptr[r + 1]; j++) s += val[j];
      ok &= out[r] == s && out[R + r] == 31;
    }
    expect(tag, ok);
    if (b.y != 1) continue;
    for (int d = 0; d <= 33; d++) {
      shuffles<<<nb, b>>>(d, out);
      cudaDeviceSynchronize();
      ok = true;
      for (int t = 0; t < nb * nt; t++) {
        int e[6];
        shuffles_cpu(t, d, e);
        for (int i = 0; i < 6; i++)
          if (out[6 * t + i] != e[i]) {
            if (ok) printf("%s: shuffle %d by %d, thread %d: %d, expected %d\n", tag, i, d, t, out[6 * t + i], e[i]);
            ok = false;
          }
      }
      expect(tag, ok);
    }
    slices<<<nb, b>>>(flag, cnt, out);
    cudaDeviceSynchronize();
    ok = true;
    for (int t = 0; t < nb * nt; t++) {
      int l = t % 32, r = (t - l + (l + 1) % 32) * 3;
      if (flag[t / 32]) r += 1;
      for (int k = 0; k < cnt[t / 32]; k++) r += k;
      ok &= out[t] == (l < 16 ? -r : r);
    }
    expect(tag, ok);
    blockwide<<<nb, b>>>(out);
    cudaDeviceSynchronize();
    ok = true;
    for (int t = 0; t < nb * nt; t++) {
      int x = t % nt, w = x / 32;
      ok &= out[t] == w * 10 + x % 32 * 1000;
    }
    expect(tag, ok);
  }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

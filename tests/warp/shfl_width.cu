// shfl_width.cu: shuffles whose width is not a constant of the kernel: a
// __device__ helper's parameter (the helper runs as a warp version, its
// parameters lane arrays where its callers' arguments vary), a width that
// differs between the warps of a block, and one that differs between the
// lanes of a warp (each lane's width is its own operand on a GPU). Checked
// against a CPU model of the instruction, lane by lane.
#include <cstdio>
#include <cstring>

__device__ float seg_sum(float v, int width) {
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, width);
  return v;
}
__device__ float seg_scan(float v, int width) {
  int lane = threadIdx.x % 32;
  for (int o = 1; o < width; o *= 2) {
    float u = __shfl_up_sync(0xffffffffu, v, o, width);
    if (lane % width >= o) v += u;
  }
  return v;
}
__device__ float seg_get(float v, int src, int width) { return __shfl_sync(0xffffffffu, v, src, width); }
__device__ float seg_xor(float v, int m, int width) { return __shfl_xor_sync(0xffffffffu, v, m, width); }

__global__ void widths(float *o) {
  int t = threadIdx.x;
  int w = t < 64 ? 8 : 16;   // the same within each warp, not between warps
  int lw = t % 2 ? 4 : 16;   // different within a warp
  float v = (float)(t * 3 % 17);
  o[t] = seg_sum(v, w);
  o[128 + t] = seg_scan(v, w);
  o[256 + t] = seg_get(v, t % 5, w);
  o[384 + t] = seg_xor(v, 3, w);
  o[512 + t] = seg_sum(v, 4);   // a constant
  o[640 + t] = __shfl_sync(0xffffffffu, v, t + 1, lw);
  o[768 + t] = __shfl_down_sync(0xffffffffu, v, 1, lw);
}

// the instruction for one warp: lane l's own width w[l]
enum { IDX, UP, DOWN, XOR };
static void shfl(int k, const float *v, const int *arg, const int *w, float *out) {
  for (int l = 0; l < 32; l++) {
    int wl = w[l], seg = l & ~(wl - 1), s;
    if (k == IDX) s = seg | (arg[l] & (wl - 1));
    else if (k == UP) s = (l & (wl - 1)) >= arg[l] ? l - arg[l] : l;
    else if (k == DOWN) s = (l & (wl - 1)) + arg[l] < wl ? l + arg[l] : l;
    else s = (l ^ arg[l]) < seg + wl ? l ^ arg[l] : l;
    out[l] = v[s];
  }
}

int main() {
  float *o;
  cudaMallocManaged(&o, 896 * sizeof(float));
  widths<<<1, 128>>>(o);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: launch\n"), 1;
  int bad = 0;
  for (int wp = 0; wp < 4; wp++) {
    float v[32], r[7][32], x[32], y[32];
    int w[32], lw[32], a[32];
    for (int l = 0; l < 32; l++) {
      int t = wp * 32 + l;
      v[l] = (float)(t * 3 % 17), w[l] = t < 64 ? 8 : 16, lw[l] = t % 2 ? 4 : 16;
    }
    memcpy(x, v, sizeof x);   // seg_sum(v, w)
    for (int d = w[0] / 2; d > 0; d /= 2) {
      for (int l = 0; l < 32; l++) a[l] = d;
      shfl(DOWN, x, a, w, y);
      for (int l = 0; l < 32; l++) x[l] += y[l];
    }
    memcpy(r[0], x, sizeof x);
    memcpy(x, v, sizeof x);   // seg_scan(v, w)
    for (int d = 1; d < w[0]; d *= 2) {
      for (int l = 0; l < 32; l++) a[l] = d;
      shfl(UP, x, a, w, y);
      for (int l = 0; l < 32; l++) if (l % w[l] >= d) x[l] += y[l];
    }
    memcpy(r[1], x, sizeof x);
    for (int l = 0; l < 32; l++) a[l] = (wp * 32 + l) % 5;
    shfl(IDX, v, a, w, r[2]);
    for (int l = 0; l < 32; l++) a[l] = 3;
    shfl(XOR, v, a, w, r[3]);
    int four[32];
    for (int l = 0; l < 32; l++) four[l] = 4;
    memcpy(x, v, sizeof x);
    for (int d = 2; d > 0; d /= 2) {
      for (int l = 0; l < 32; l++) a[l] = d;
      shfl(DOWN, x, a, four, y);
      for (int l = 0; l < 32; l++) x[l] += y[l];
    }
    memcpy(r[4], x, sizeof x);
    for (int l = 0; l < 32; l++) a[l] = wp * 32 + l + 1;
    shfl(IDX, v, a, lw, r[5]);
    for (int l = 0; l < 32; l++) a[l] = 1;
    shfl(DOWN, v, a, lw, r[6]);
    for (int k = 0; k < 7; k++)
      for (int l = 0; l < 32; l++)
        if (o[k * 128 + wp * 32 + l] != r[k][l] && bad++ < 8)
          printf("FAILED: case %d thread %d: %g, expected %g\n", k, wp * 32 + l, o[k * 128 + wp * 32 + l], r[k][l]);
  }
  if (bad) return 1;
  printf("PASSED\n");
  return 0;
}

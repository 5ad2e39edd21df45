// lane_loop_scalars.cu: short uniform loops that run inside one lane loop
// (whole rows, half rows, the block-wide version with one and two warps),
// whose per-thread variables the lowering holds in scalars for the loop:
// stored to (+=, = under a uniform if, ++), only read, only written, read
// after the loop, kept across a barrier. 16 x 3 blocks take the general
// version (no scalars) as a control. Checked against a CPU reference.
#include <cstdio>

__global__ void k(const float *in, float *out, int w) {
  __shared__ float s[16][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  int t = tx + blockDim.x * ty;
  float acc = 0, last = -1, scale = 0.5f * (tx + 1);
  int hits = 0, steps = tx & 3, mark = -tx;
  for (int m = 0; m < 2; m++) {
    s[ty][tx] = in[(blockIdx.x * 2 + m) * 512 + t];
    __syncthreads();
    for (int j = 0; j < 16; j++) {
      acc += s[ty][j] * scale;           // stored, read-only scale
      if (j % 4 == 3) last = acc;        // = under a uniform if
      if (j & 1) hits += 1 + (tx & 1);  // a per-thread count
      steps++;                           // ++
      mark = j + tx;                     // only written
    }
    __syncthreads();
  }
  float after = acc + last + steps + mark;   // read after the loops
  for (int j = 0; j < 8; j++) after -= 0.125f * hits;
  out[blockIdx.x * 512 + t] = after + w;
}

static void ref(const float *in, float *out, int bx, int dx, int dy, int w) {
  for (int ty = 0; ty < dy; ty++)
    for (int tx = 0; tx < dx; tx++) {
      int t = tx + dx * ty;
      float acc = 0, last = -1, scale = 0.5f * (tx + 1);
      int hits = 0, steps = tx & 3, mark = -tx;
      for (int m = 0; m < 2; m++) {
        for (int j = 0; j < 16; j++) {
          int col = j;   // s[ty][j]: row ty's j-th element of this m
          acc += in[(bx * 2 + m) * 512 + col + dx * ty] * scale;
          if (j % 4 == 3) last = acc;
          if (j & 1) hits += 1 + (tx & 1);
          steps++;
          mark = j + tx;
        }
      }
      float after = acc + last + steps + mark;
      for (int j = 0; j < 8; j++) after -= 0.125f * hits;
      out[bx * 512 + t] = after + w;
    }
}

int main() {
  const int nb = 3;
  static float h[nb * 2 * 512], o[nb * 512], want[nb * 512];
  for (int i = 0; i < nb * 2 * 512; i++) h[i] = (float)((i * 7) % 13) - 6.0f;
  float *d, *dout;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dout, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  // 32 x 16: whole rows; 16 x 16: half rows; 16 x 3: any shape (last warp
  // partial); 32 x 1 and 64 x 1 are 1-D: the block-wide version
  int shapes[5][2] = {{32, 16}, {16, 16}, {16, 3}, {32, 1}, {64, 1}};
  int bad = 0;
  for (int c = 0; c < 5; c++) {
    int dx = shapes[c][0], dy = shapes[c][1];
    cudaMemset(dout, 0, sizeof o);
    k<<<nb, dim3(dx, dy)>>>(d, dout, 5);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    for (int b = 0; b < nb; b++) ref(h, want, b, dx, dy, 5);
    for (int b = 0; b < nb; b++)
      for (int t = 0; t < dx * dy; t++) {
        int i = b * 512 + t;
        if (o[i] != want[i]) {
          if (bad++ < 5) printf("block %dx%d: out[%d] = %g, want %g\n", dx, dy, i, o[i], want[i]);
        }
      }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

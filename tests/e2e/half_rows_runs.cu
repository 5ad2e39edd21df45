// half_rows_runs.cu: conditions on a 16-wide block's thread indices whose
// lanes are runs (a comparison of a lane value with a row value, an
// interval, with row terms, ==, >=, their negations in an else), which the
// half-row version counts sub-row by sub-row without a lane loop; grids
// that do not divide the blocks, so warps split at the edges. Each answer
// against the CPU's; under every version (CUCC_VERSIONS).
#include <cstdio>
#include <cstdlib>

__global__ void conds(const float *u, float *o, int nx, int ny, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) o[j * nx + i] = 0;
  if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1)   // an interval, row terms
    o[j * nx + i] = 0.25f * (u[j * nx + i - 1] + u[j * nx + i + 1] + u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
  if (i == c && j < ny)   // one lane
    o[j * nx + i] += 100.0f;
  if (i >= c + 3 && j < ny && i < nx)   // a suffix, cut by the edge
    o[j * nx + i] += 1.0f;
  else if (j < ny && i < nx)
    o[j * nx + i] -= 1.0f;
  if (!(i < 5) && j < ny && i < nx && j != 3)   // a negation, a row term
    o[j * nx + i] *= 2.0f;
}

static void ref(const float *u, float *o, int nx, int ny, int c) {
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      float v = 0;
      if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1)
        v = 0.25f * (u[j * nx + i - 1] + u[j * nx + i + 1] + u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
      if (i == c) v += 100.0f;
      if (i >= c + 3) v += 1.0f;
      else v -= 1.0f;
      if (!(i < 5) && j != 3) v *= 2.0f;
      o[j * nx + i] = v;
    }
}

int main() {
  const int nx = 53, ny = 37;
  size_t sz = nx * ny * sizeof(float);
  float *u = (float *)malloc(sz), *o = (float *)malloc(sz), *r = (float *)malloc(sz);
  for (int k = 0; k < nx * ny; k++) u[k] = (float)((k * 7919) % 101) / 8.0f;
  float *du, *dout;
  cudaMalloc(&du, sz);
  cudaMalloc(&dout, sz);
  cudaMemcpy(du, u, sz, cudaMemcpyHostToDevice);
  int fails = 0;
  const int hs[] = {2, 4, 6, 16};
  const int cs[] = {0, 7, 16, 21, 52};
  for (int h = 0; h < 4; h++)
    for (int k = 0; k < 5; k++) {
      dim3 b(16, hs[h]), g((nx + 15) / 16, (ny + hs[h] - 1) / hs[h]);
      conds<<<g, b>>>(du, dout, nx, ny, cs[k]);
      cudaMemcpy(o, dout, sz, cudaMemcpyDeviceToHost);
      ref(u, r, nx, ny, cs[k]);
      for (int q = 0; q < nx * ny; q++)
        if (o[q] != r[q]) {
          printf("FAIL 16 x %d, c = %d: o[%d][%d] = %g, expected %g\n", hs[h], cs[k], q / nx, q % nx, o[q], r[q]);
          fails++;
          break;
        }
    }
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}

// matmul_tiled.cu: the lecture notes' tiled matrix multiply with shared
// memory tiles, templated on the tile width (8, 16, 32), for widths that are
// and are not multiples of the tile (bounds-checked loads and stores).
// Usage: ./matmul_tiled [width...]   (default: 64 100 257)
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

template <int TILE_WIDTH>
__global__ void MatrixMulKernel(const float *Md, const float *Nd, float *Pd, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int m = 0; m < (Width + TILE_WIDTH - 1) / TILE_WIDTH; ++m) {
    Mds[ty][tx] = (Row < Width && m * TILE_WIDTH + tx < Width) ? Md[Row * Width + m * TILE_WIDTH + tx] : 0.0f;
    Nds[ty][tx] = (Col < Width && m * TILE_WIDTH + ty < Width) ? Nd[(m * TILE_WIDTH + ty) * Width + Col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  if (Row < Width && Col < Width) Pd[Row * Width + Col] = Pvalue;
}

template <int T>
static int run(const float *M, const float *N, float *P, const float *ref, int w) {
  float *Md, *Nd, *Pd;
  size_t sz = (size_t)w * w * sizeof(float);
  CHECK(cudaMalloc(&Md, sz)); CHECK(cudaMalloc(&Nd, sz)); CHECK(cudaMalloc(&Pd, sz));
  CHECK(cudaMemcpy(Md, M, sz, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(Nd, N, sz, cudaMemcpyHostToDevice));
  dim3 block(T, T), grid((w + T - 1) / T, (w + T - 1) / T);
  MatrixMulKernel<T><<<grid, block>>>(Md, Nd, Pd, w);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(P, Pd, sz, cudaMemcpyDeviceToHost));
  cudaFree(Md); cudaFree(Nd); cudaFree(Pd);
  int bad = 0;
  for (int i = 0; i < w * w; i++)
    if (!(fabsf(P[i] - ref[i]) <= 1e-3f * fabsf(ref[i]) + 1e-3f)) {
      if (bad++ < 3) printf("  tile %d width %d: P[%d] = %f, want %f\n", T, w, i, P[i], ref[i]);
    }
  printf("tile %2d width %4d: %s\n", T, w, bad ? "wrong" : "ok");
  return bad != 0;
}

int main(int argc, char **argv) {
  int widths[16] = {64, 100, 257}, nw = 3;
  if (argc > 1) for (nw = 0; nw < argc - 1 && nw < 16; nw++) widths[nw] = atoi(argv[nw + 1]);
  int fails = 0;
  for (int i = 0; i < nw; i++) {
    int w = widths[i];
    float *M = (float *)malloc(w * w * sizeof(float)), *N = (float *)malloc(w * w * sizeof(float));
    float *P = (float *)malloc(w * w * sizeof(float)), *ref = (float *)malloc(w * w * sizeof(float));
    for (int k = 0; k < w * w; k++) { M[k] = (float)(k % 17) / 8.0f - 1.0f; N[k] = (float)(k % 13) / 4.0f; }
    for (int r = 0; r < w; r++)
      for (int c = 0; c < w; c++) {
        double s = 0;
        for (int k = 0; k < w; k++) s += (double)M[r * w + k] * N[k * w + c];
        ref[r * w + c] = (float)s;
      }
    fails += run<8>(M, N, P, ref, w);
    fails += run<16>(M, N, P, ref, w);
    fails += run<32>(M, N, P, ref, w);
    free(M); free(N); free(P); free(ref);
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}

// stencil.cu: shared-memory stencils with halos. A 1-D stencil of radius 3
// (each block loads its elements plus RADIUS on each side) and a 2-D
// 5-point Laplacian on 16x16 tiles with a one-cell border.
// Usage: ./stencil [n1d] [w2d] [h2d]   (default 100003 301 197)
#include <cstdio>
#include <cstdlib>

#define RADIUS 3
#define BLOCK 256
#define TILE 16
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void stencil1d(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  s[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + BLOCK;
    s[l - RADIUS] = left >= 0 && left < n ? in[left] : 0.0f;
    s[l + BLOCK] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (g < n) {
    float r = 0;
    for (int o = -RADIUS; o <= RADIUS; o++) r += s[l + o];
    out[g] = r;
  }
}

__global__ void laplace2d(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE + 2][TILE + 2];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  tile[ty][tx] = x < w && y < h ? in[y * w + x] : 0.0f;
  if (threadIdx.x == 0) tile[ty][0] = x > 0 && y < h ? in[y * w + x - 1] : 0.0f;
  if (threadIdx.x == TILE - 1) tile[ty][TILE + 1] = x + 1 < w && y < h ? in[y * w + x + 1] : 0.0f;
  if (threadIdx.y == 0) tile[0][tx] = y > 0 && x < w ? in[(y - 1) * w + x] : 0.0f;
  if (threadIdx.y == TILE - 1) tile[TILE + 1][tx] = y + 1 < h && x < w ? in[(y + 1) * w + x] : 0.0f;
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1] - 4.0f * tile[ty][tx];
}

static float at(const float *a, int w, int h, int x, int y) {
  return x >= 0 && x < w && y >= 0 && y < h ? a[y * w + x] : 0.0f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100003;
  int w = argc > 2 ? atoi(argv[2]) : 301, h = argc > 3 ? atoi(argv[3]) : 197;
  int bad = 0;
  float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) in[i] = (float)((i * 31) % 101) / 10.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
  stencil1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float r = 0;
    for (int o = -RADIUS; o <= RADIUS; o++) r += i + o >= 0 && i + o < n ? in[i + o] : 0.0f;
    if (fabsf(r - out[i]) > 1e-4f * fabsf(r) + 1e-4f && bad++ < 3) printf("1-D: out[%d] = %f, want %f\n", i, out[i], r);
  }
  printf("1-D stencil, n = %d: %s\n", n, bad ? "wrong" : "ok");
  cudaFree(d_in); cudaFree(d_out);

  int bad2 = 0;
  size_t sz = (size_t)w * h * sizeof(float);
  float *a = (float *)malloc(sz), *b = (float *)malloc(sz);
  for (int i = 0; i < w * h; i++) a[i] = (float)((i * 17) % 23) - 11.0f;
  CHECK(cudaMalloc(&d_in, sz));
  CHECK(cudaMalloc(&d_out, sz));
  CHECK(cudaMemcpy(d_in, a, sz, cudaMemcpyHostToDevice));
  laplace2d<<<dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), dim3(TILE, TILE)>>>(d_in, d_out, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(b, d_out, sz, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float r = at(a, w, h, x, y - 1) + at(a, w, h, x, y + 1) + at(a, w, h, x - 1, y) + at(a, w, h, x + 1, y) - 4.0f * a[y * w + x];
      if (fabsf(r - b[y * w + x]) > 1e-4f && bad2++ < 3) printf("2-D: (%d,%d) = %f, want %f\n", x, y, b[y * w + x], r);
    }
  printf("2-D Laplacian %dx%d: %s\n", w, h, bad2 ? "wrong" : "ok");
  cudaFree(d_in); cudaFree(d_out);
  free(in); free(out); free(a); free(b);
  printf("%s\n", bad || bad2 ? "FAIL" : "PASS");
  return bad || bad2 ? 1 : 0;
}

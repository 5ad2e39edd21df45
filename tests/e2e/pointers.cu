// pointers.cu: pointer arithmetic and comparison, pointer differences,
// pointer to pointer, a device array of device pointers (float **rows),
// int (*m)[4] 2-D indexing of global memory, multi-dimensional local arrays,
// local arrays indexed by thread-dependent values. Odd sizes, partial blocks.
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 8

__global__ void ptrs(const int *a, int *g, int *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int *r = o + i * K;
  const int *p = a + i;           // a has n + 8 elements
  const int *end = a + n + 8;
  p += 3;
  r[0] = *p + p[-2] + *(p + 4);
  r[1] = (int)(p - a);            // pointer difference
  r[2] = (p < end) + 2 * (p >= a + 3) + 4 * (p == a + i + 3) + 8 * (p != a);
  const int **pp = &p;
  (*pp)++;
  r[3] = **pp + (int)(*pp - a) * 1000;
  int (*m)[4] = (int (*)[4])g;    // g is n rows of 4
  for (int j = 0; j < 4; j++)
    m[i][j] = i * 10 + j;
  m[i][i % 4] = -m[i][i % 4];
  int loc[3][5];
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++)
      loc[y][x] = (y + 1) * (x + i % 7);
  int s = 0;
  for (int y = 0; y < 3; y++) s += loc[y][(i + y) % 5];
  r[4] = s;
  int t[8];
  for (int j = 0; j < 8; j++) t[j] = j * j;
  t[threadIdx.x % 8] = -1;        // store at a varying index
  r[5] = t[(threadIdx.x + 3) % 8] * 100 + t[threadIdx.x % 8] + t[i % 8];
  int *q = &loc[1][0];
  q += i % 5;
  r[6] = *q + (int)(q - &loc[0][0]);
  r[7] = (int)sizeof(loc) + (int)(sizeof(*m) * 100);
}

// rows: a device array of n device pointers, each to a row of 3 floats
__global__ void rowscale(float **rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float *row = rows[i];
    float **self = &rows[i];
    row[0] *= 2.0f;
    (*self)[1] += row[0];
    *(*(rows + i) + 2) = (float)i;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 777;
  int *ha = (int *)malloc((n + 8) * sizeof(int));
  int *hg = (int *)malloc(n * 4 * sizeof(int)), *ho = (int *)malloc(n * K * sizeof(int));
  for (int i = 0; i < n + 8; i++) ha[i] = i * i % 1000 - 300;
  int *da, *dg, *dout;
  CHECK(cudaMalloc(&da, (n + 8) * sizeof(int)));
  CHECK(cudaMalloc(&dg, n * 4 * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * K * sizeof(int)));
  CHECK(cudaMemcpy(da, ha, (n + 8) * sizeof(int), cudaMemcpyHostToDevice));
  ptrs<<<(n + 63) / 64, 64>>>(da, dg, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, dout, n * K * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hg, dg, n * 4 * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int w[K], tid = i % 64;
    w[0] = ha[i + 3] + ha[i + 1] + ha[i + 7];
    w[1] = i + 3;
    w[2] = 1 + 2 + 4 + 8;
    w[3] = ha[i + 4] + (i + 4) * 1000;
    int s = 0;
    for (int y = 0; y < 3; y++) s += (y + 1) * ((i + y) % 5 + i % 7);
    w[4] = s;
    int t[8];
    for (int j = 0; j < 8; j++) t[j] = j * j;
    t[tid % 8] = -1;
    w[5] = t[(tid + 3) % 8] * 100 + t[tid % 8] + t[i % 8];
    w[6] = 2 * (i % 5 + i % 7) + 5 + i % 5;
    w[7] = 15 * 4 + 16 * 100;
    for (int k = 0; k < K; k++)
      if (ho[i * K + k] != w[k] && bad++ < 10)
        printf("thread %d r[%d] = %d, want %d\n", i, k, ho[i * K + k], w[k]);
    for (int j = 0; j < 4; j++) {
      int want = (j == i % 4 ? -1 : 1) * (i * 10 + j);
      if (hg[i * 4 + j] != want && bad++ < 10)
        printf("m[%d][%d] = %d, want %d\n", i, j, hg[i * 4 + j], want);
    }
  }
  // device array of device pointers
  float *drow_data, **drows;
  float **hrows = (float **)malloc(n * sizeof(float *));
  float *hdata = (float *)malloc(n * 3 * sizeof(float));
  for (int i = 0; i < n * 3; i++) hdata[i] = (float)(i % 11);
  CHECK(cudaMalloc(&drow_data, n * 3 * sizeof(float)));
  CHECK(cudaMalloc(&drows, n * sizeof(float *)));
  for (int i = 0; i < n; i++) hrows[i] = drow_data + 3 * (n - 1 - i);   // reversed
  CHECK(cudaMemcpy(drow_data, hdata, n * 3 * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(drows, hrows, n * sizeof(float *), cudaMemcpyHostToDevice));
  rowscale<<<(n + 31) / 32, 32>>>(drows, n);
  CHECK(cudaGetLastError());
  float *got = (float *)malloc(n * 3 * sizeof(float));
  CHECK(cudaMemcpy(got, drow_data, n * 3 * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    const float *h = hdata + 3 * (n - 1 - i), *d = got + 3 * (n - 1 - i);
    float w0 = h[0] * 2.0f, w1 = h[1] + w0, w2 = (float)i;
    if ((d[0] != w0 || d[1] != w1 || d[2] != w2) && bad++ < 10)
      printf("row %d = %g %g %g, want %g %g %g\n", i, d[0], d[1], d[2], w0, w1, w2);
  }
  cudaFree(da); cudaFree(dg); cudaFree(dout); cudaFree(drow_data); cudaFree(drows);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}

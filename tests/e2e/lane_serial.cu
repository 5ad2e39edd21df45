// lane_serial.cu: a loop over a range of each thread's own (a CSR row per
// thread: `for (jj = ptr[row]; jj < ptr[row + 1]; jj++)`, or a `while`
// or do-while stepping a cursor declared before it, or offsets from the
// row's own start, or a pointer stepped along the row; its body may declare the lane's own variables, branch
// on them, break and continue) runs lane by lane
// in the whole- and half-row versions, each lane reading its range in
// order; loops whose lockstep matters or pays stay lockstep (lower_serial
// reads which is which from --dump-lir). Empty ranges, masked and partial
// warps, steps of 1 and 3, <=, a pure helper, 1-D and 16 x 16 blocks, every
// version (CUCC_VERSIONS), against a CPU reference.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ __host__ float weight(int j) { return 1.0f + (j & 3) * 0.25f; }

__global__ void csr(int n, const int *ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row < n) {
    float dot = 0;
    int s = ptr[row], e = ptr[row + 1];
    for (int jj = s; jj < e; jj++) dot += val[jj] * x[col[jj]];        // lane by lane
    for (int jj = s; jj <= e - 1; jj += 3) dot += weight(jj) * val[jj]; // a step of 3, <=, a pure call
    for (int jj = s; jj < e; jj++) {                                   // lane by lane: a local, an if
      int c = col[jj];
      if (c % 3 != 0) dot += val[jj];
      else dot -= 0.25f * x[c];
    }
    int j = s;
    while (j < e) {                                                     // lane by lane: a while
      dot += val[j] * 0.5f;
      j += 2;
    }
    y[row] = dot + (float)(j - s);                                      // its cursor after it
  }
}

__global__ void csr2(int w, int h, const int *ptr, const float *val, float *y, int *hits) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, yy = blockIdx.y * blockDim.y + threadIdx.y;
  int r = yy * w + x;
  if (x < w && yy < h) {
    float acc = 0;
    for (int k = ptr[r]; k < ptr[r + 1]; ++k) acc += val[k];           // lane by lane, half rows
    for (int k = ptr[r]; k < ptr[r + 1]; ++k) atomicAdd(&hits[k % 64], 1);   // lockstep: an atomic
    for (int k = threadIdx.x; k < ptr[r + 1] - ptr[r] + 16; k += 16) acc += val[ptr[r]] * 0.5f;   // lockstep: affine
    y[r] = acc;
  }
}

// more spellings of a row per thread: offsets from the row's own start
// (its variable starts at 0 in every lane), a do-while, break and continue
__global__ void csr3(int n, const int *ptr, const int *col, const float *val, float *y) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row >= n) return;
  float dot = 0;
  const float *v = val + ptr[row];
  const int *cc = col + ptr[row];
  for (int k = 0; k < ptr[row + 1] - ptr[row]; k++) dot += v[k] * (float)(cc[k] % 7);   // lane by lane
  int jj = ptr[row];
  if (jj < ptr[row + 1]) do {                                                           // lane by lane: a do-while
      dot += 0.5f * val[jj];
      ++jj;
    } while (jj < ptr[row + 1]);
  for (int j = ptr[row]; j < ptr[row + 1]; j++) {                                       // lane by lane: break, continue
    if (col[j] % 5 == 0) continue;
    if (col[j] > 900) break;
    dot -= val[j];
  }
  y[row] = dot + (float)jj;
}

// pointer cursors over the row: a for stepping a pointer to its end, a
// while over one declared before it, a for stepping two declared before it
// (their values after the loop are read)
__global__ void csrp(int n, const int *ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row >= n) return;
  float dot = 0;
  const float *e = val + ptr[row + 1];
  for (const float *p = val + ptr[row]; p < e; p++) dot += *p * 2.0f;     // lane by lane: a pointer
  for (const int *c = col + ptr[row]; c != col + ptr[row + 1]; ++c) dot += x[*c];   // lane by lane: !=
  const float *q = val + ptr[row];
  while (q < e) {                                                         // lane by lane: a while
    dot -= 0.25f * *q;
    q += 2;
  }
  const float *d = val + ptr[row];
  const int *c2 = col + ptr[row];
  for (; d < e; d++, c2++) dot += *d * (float)(*c2 % 3);                 // lane by lane: two cursors
  y[row] = dot + (float)(q - val) + (float)(c2 - col);
}

// lockstep: a variable the same in every lane indexing a run of lanes
// (one vector a step; lane by lane it would be 32 strided stores)
__global__ void colmaj(int n, const int *ptr, float *out) {
  int t = blockDim.x * blockIdx.x + threadIdx.x;
  if (t < n)
    for (int k = 0; k < ptr[t + 1] - ptr[t]; k++) out[k * n + t] = (float)(k + t);
}

static int fails;
static void check(const char *what, const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("%s: [%d] = %g, expected %g\n", what, i, got[i], want[i]);
      if (++fails > 10) return;
    }
}

int main() {
  const int N = 1000, W = 48, H = 32;
  int hptr[W * H + 1];
  hptr[0] = 0;
  for (int r = 0; r < W * H; r++) hptr[r + 1] = hptr[r] + (r % 7 == 3 ? 0 : (int)((r * 2654435761u) >> 28) + 1);
  int nnz = hptr[W * H];
  int *hcol = new int[nnz];
  float *hval = new float[nnz], hx[N], *hy = new float[W * H], *want = new float[W * H];
  for (int j = 0; j < nnz; j++) hcol[j] = (j * 37) % N, hval[j] = (float)(j % 11) - 5.0f;
  for (int i = 0; i < N; i++) hx[i] = (float)(i % 5) * 0.5f;
  int *ptr, *col, *hits;
  float *val, *x, *y;
  cudaMalloc(&ptr, sizeof hptr);
  cudaMalloc(&col, sizeof(int) * nnz);
  cudaMalloc(&val, sizeof(float) * nnz);
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof(float) * W * H);
  cudaMalloc(&hits, sizeof(int) * 64);
  cudaMemcpy(ptr, hptr, sizeof hptr, cudaMemcpyHostToDevice);
  cudaMemcpy(col, hcol, sizeof(int) * nnz, cudaMemcpyHostToDevice);
  cudaMemcpy(val, hval, sizeof(float) * nnz, cudaMemcpyHostToDevice);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  for (int r = 0; r < N; r++) {
    float dot = 0;
    for (int jj = hptr[r]; jj < hptr[r + 1]; jj++) dot += hval[jj] * hx[hcol[jj]];
    for (int jj = hptr[r]; jj <= hptr[r + 1] - 1; jj += 3) dot += weight(jj) * hval[jj];
    for (int jj = hptr[r]; jj < hptr[r + 1]; jj++) {
      int c = hcol[jj];
      if (c % 3 != 0) dot += hval[jj];
      else dot -= 0.25f * hx[c];
    }
    int j = hptr[r];
    while (j < hptr[r + 1]) {
      dot += hval[j] * 0.5f;
      j += 2;
    }
    want[r] = dot + (float)(j - hptr[r]);
  }
  const int blocks[] = {32, 64, 100, 256, 1024};
  for (int b : blocks) {
    cudaMemset(y, 0, sizeof(float) * W * H);
    csr<<<(N + b - 1) / b, b>>>(N, ptr, col, val, x, y);
    cudaMemcpy(hy, y, sizeof(float) * N, cudaMemcpyDeviceToHost);
    char what[32];
    snprintf(what, sizeof what, "csr, blocks of %d", b);
    check(what, hy, want, N);
  }
  for (int r = 0; r < N; r++) {
    float dot = 0;
    for (int j = hptr[r]; j < hptr[r + 1]; j++) dot += hval[j] * 2.0f;
    for (int j = hptr[r]; j < hptr[r + 1]; j++) dot += hx[hcol[j]];
    int q = hptr[r];
    for (; q < hptr[r + 1]; q += 2) dot -= 0.25f * hval[q];
    for (int j = hptr[r]; j < hptr[r + 1]; j++) dot += hval[j] * (float)(hcol[j] % 3);
    want[r] = dot + (float)q + (float)hptr[r + 1];
  }
  for (int b : blocks) {
    cudaMemset(y, 0, sizeof(float) * W * H);
    csrp<<<(N + b - 1) / b, b>>>(N, ptr, col, val, x, y);
    cudaMemcpy(hy, y, sizeof(float) * N, cudaMemcpyDeviceToHost);
    char what[32];
    snprintf(what, sizeof what, "csrp, blocks of %d", b);
    check(what, hy, want, N);
  }
  for (int r = 0; r < N; r++) {
    float dot = 0;
    for (int k = 0; k < hptr[r + 1] - hptr[r]; k++) dot += hval[hptr[r] + k] * (float)(hcol[hptr[r] + k] % 7);
    int jj = hptr[r];
    for (; jj < hptr[r + 1]; jj++) dot += 0.5f * hval[jj];
    for (int j = hptr[r]; j < hptr[r + 1]; j++) {
      if (hcol[j] % 5 == 0) continue;
      if (hcol[j] > 900) break;
      dot -= hval[j];
    }
    want[r] = dot + (float)jj;
  }
  for (int b : blocks) {
    cudaMemset(y, 0, sizeof(float) * W * H);
    csr3<<<(N + b - 1) / b, b>>>(N, ptr, col, val, y);
    cudaMemcpy(hy, y, sizeof(float) * N, cudaMemcpyDeviceToHost);
    char what[32];
    snprintf(what, sizeof what, "csr3, blocks of %d", b);
    check(what, hy, want, N);
  }
  {
    const int M = 64, K = 40;   // rows of at most 40 nonzeros
    float *o, *ho = new float[K * M], *wo = new float[K * M];
    cudaMalloc(&o, sizeof(float) * K * M);
    cudaMemset(o, 0, sizeof(float) * K * M);
    for (int k = 0; k < K; k++)
      for (int t = 0; t < M; t++) wo[k * M + t] = k < hptr[t + 1] - hptr[t] ? (float)(k + t) : 0.0f;
    colmaj<<<2, 32>>>(M, ptr, o);
    cudaMemcpy(ho, o, sizeof(float) * K * M, cudaMemcpyDeviceToHost);
    check("colmaj", ho, wo, K * M);
    cudaFree(o);
  }
  int whits[64] = {0}, ghits[64];
  for (int r = 0; r < W * H; r++) {
    float acc = 0;
    for (int k = hptr[r]; k < hptr[r + 1]; ++k) acc += hval[k], whits[k % 64]++;
    for (int k = r % W % 16; k < hptr[r + 1] - hptr[r] + 16; k += 16) acc += hval[hptr[r]] * 0.5f;
    want[r] = acc;
  }
  cudaMemset(hits, 0, sizeof(int) * 64);
  csr2<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(W, H, ptr, val, y, hits);
  cudaMemcpy(hy, y, sizeof(float) * W * H, cudaMemcpyDeviceToHost);
  cudaMemcpy(ghits, hits, sizeof ghits, cudaMemcpyDeviceToHost);
  check("csr2, 16 x 16", hy, want, W * H);
  for (int i = 0; i < 64; i++)
    if (ghits[i] != whits[i]) printf("hits[%d] = %d, expected %d\n", i, ghits[i], whits[i]), fails++;
  if (cudaGetLastError() != cudaSuccess) printf("CUDA error\n"), fails++;
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}

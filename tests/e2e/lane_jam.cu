// lane_jam.cu: short uniform loops over a tile in shared memory, which the
// whole- and half-row versions run jammed (the loop outside the lanes, the
// lanes' scalars in arrays) and the half-row version two warps at a time
// where blockDim.y % 4 == 0 (version.c, lw_jam). Tiles of 16 x 16, 16 x 8
// and 16 x 4 (pairs), 16 x 2 and 16 x 6 (one warp at a time), 32 x 4 and
// 64 x 2 (whole rows); two accumulators, one only read; a uniform if and a
// nested uniform loop in the body; the loop's variable read in the sum; a
// region with an atomic (never paired); the whole body inside a bounds
// test every thread passes (a kernel with exit flags: pairs keep two
// warps' flags); the first matmul everyone writes, no shared memory, its
// loop under a bounds test that splits warps at the edges of odd sizes
// (paired, counted, masked). Each answer against the CPU's; under every version
// (CUCC_VERSIONS).
#include <cstdio>
#include <cstdlib>
#include <cmath>

// C = A * B over tiles of TW x TH threads (TW columns; the k loop runs
// over 16 of them at a time); D gets a second sum: of squares, negated on
// odd k, plus k
template <int TW, int TH>
__global__ void tiles(const float *A, const float *B, float *C, float *D, int n, float bias) {
  __shared__ float As[TH][TW], Bs[TW][TW];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TH + ty, col = blockIdx.x * TW + tx;
  float acc = 0, sq = bias;
  for (int m = 0; m < n / TW; m++) {
    As[ty][tx] = A[row * n + m * TW + tx];
    for (int r = ty; r < TW; r += TH) Bs[r][tx] = B[(m * TW + r) * n + col];
    __syncthreads();
    for (int h = 0; h < TW; h += 16)
      for (int k = 0; k < 16; k++) {
        float p = As[ty][h + k] * Bs[h + k][tx];
        acc += p;
        if (k & 1)
          sq -= p * p;
        else
          sq += p * p + bias;
        for (int j = 0; j < 2; j++) sq += 0.25f * j * k;
      }
    __syncthreads();
  }
  C[row * n + col] = acc;
  D[row * n + col] = sq;
}

// the same loop, and an atomic in its region: a count of tiles
__global__ void counted(const float *A, const float *B, float *C, int n, int *count) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0;
  for (int m = 0; m < n / 16; m++) {
    As[ty][tx] = A[row * n + m * 16 + tx];
    Bs[ty][tx] = B[(m * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx];
    if (tx == 0 && ty == 0) atomicAdd(count, 1);
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// the course exercises' bounds test around the whole body, barriers and
// all: legal as every thread of a block passes it (n a multiple of TW)
template <int TW, int TH>
__global__ void guarded(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TH][TW], Bs[TW][TW];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TH + ty, col = blockIdx.x * TW + tx;
  if (row < n && col < n) {
    float acc = 0;
    for (int m = 0; m < n / TW; m++) {
      As[ty][tx] = A[row * n + m * TW + tx];
      for (int r = ty; r < TW; r += TH) Bs[r][tx] = B[(m * TW + r) * n + col];
      __syncthreads();
      for (int k = 0; k < TW; k++) acc += As[ty][k] * Bs[k][tx];
      __syncthreads();
    }
    C[row * n + col] = acc;
  }
}

// no shared memory: a long loop, jammed, under a divergent bounds test
__global__ void naive(const float *a, const float *b, float *c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0;
    for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

static int fails = 0;

static void ref(const float *A, const float *B, float *C, float *D, int n, float bias) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float acc = 0, sq = bias;
      for (int k = 0; k < n; k++) {
        float p = A[i * n + k] * B[k * n + j];
        int kk = k % 16;
        acc += p;
        if (kk & 1)
          sq -= p * p;
        else
          sq += p * p + bias;
        for (int jj = 0; jj < 2; jj++) sq += 0.25f * jj * kk;
      }
      C[i * n + j] = acc;
      if (D) D[i * n + j] = sq;
    }
}

static void cmp(const char *what, const float *got, const float *want, int n) {
  for (int i = 0; i < n * n; i++)
    if (fabsf(got[i] - want[i]) > 1e-3f * (1.0f + fabsf(want[i]))) {
      printf("FAIL %s: [%d][%d] = %g, expected %g\n", what, i / n, i % n, got[i], want[i]);
      fails++;
      return;
    }
}

template <int TW, int TH>
static void run(const char *what, const float *A, const float *B, float *dA, float *dB, float *dC, float *dD, int n) {
  float *C = (float *)malloc(n * n * sizeof(float)), *D = (float *)malloc(n * n * sizeof(float));
  float *rC = (float *)malloc(n * n * sizeof(float)), *rD = (float *)malloc(n * n * sizeof(float));
  tiles<TW, TH><<<dim3(n / TW, n / TH), dim3(TW, TH)>>>(dA, dB, dC, dD, n, 0.5f);
  cudaMemcpy(C, dC, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(D, dD, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  ref(A, B, rC, rD, n, 0.5f);
  cmp(what, C, rC, n);
  cmp(what, D, rD, n);
  free(C), free(D), free(rC), free(rD);
}

int main() {
  const int n = 192;   // a multiple of 64 and of 6
  size_t sz = n * n * sizeof(float);
  float *A = (float *)malloc(sz), *B = (float *)malloc(sz), *C = (float *)malloc(sz), *R = (float *)malloc(sz);
  srand(7);
  for (int i = 0; i < n * n; i++) {
    A[i] = (float)(rand() % 17 - 8) / 8.0f;
    B[i] = (float)(rand() % 13 - 6) / 4.0f;
  }
  float *dA, *dB, *dC, *dD;
  cudaMalloc(&dA, sz);
  cudaMalloc(&dB, sz);
  cudaMalloc(&dC, sz);
  cudaMalloc(&dD, sz);
  cudaMemcpy(dA, A, sz, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B, sz, cudaMemcpyHostToDevice);
  run<16, 16>("16 x 16", A, B, dA, dB, dC, dD, n);
  run<16, 8>("16 x 8", A, B, dA, dB, dC, dD, n);
  run<16, 4>("16 x 4", A, B, dA, dB, dC, dD, n);
  run<16, 2>("16 x 2", A, B, dA, dB, dC, dD, n);
  run<16, 6>("16 x 6", A, B, dA, dB, dC, dD, n);
  run<32, 4>("32 x 4", A, B, dA, dB, dC, dD, n);
  run<64, 2>("64 x 2", A, B, dA, dB, dC, dD, n);

  ref(A, B, R, NULL, n, 0.0f);
  guarded<16, 16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(dA, dB, dC, n);
  cudaMemcpy(C, dC, sz, cudaMemcpyDeviceToHost);
  cmp("guarded 16 x 16", C, R, n);
  guarded<32, 8><<<dim3(n / 32, n / 8), dim3(32, 8)>>>(dA, dB, dC, n);
  cudaMemcpy(C, dC, sz, cudaMemcpyDeviceToHost);
  cmp("guarded 32 x 8", C, R, n);
  guarded<16, 2><<<dim3(n / 16, n / 2), dim3(16, 2)>>>(dA, dB, dC, n);
  cudaMemcpy(C, dC, sz, cudaMemcpyDeviceToHost);
  cmp("guarded 16 x 2", C, R, n);

  // odd sizes: warps split at the right and bottom edges
  const int ns[] = {53, 37};
  const int bw[] = {16, 16, 16, 32, 16};
  const int bh[] = {16, 8, 4, 2, 6};
  for (int q = 0; q < 2; q++)
    for (int t = 0; t < 5; t++) {
      int m = ns[q];
      naive<<<dim3((m + bw[t] - 1) / bw[t], (m + bh[t] - 1) / bh[t]), dim3(bw[t], bh[t])>>>(dA, dB, dC, m);
      float *got = (float *)malloc(m * m * sizeof(float)), *want = (float *)malloc(m * m * sizeof(float));
      cudaMemcpy(got, dC, m * m * sizeof(float), cudaMemcpyDeviceToHost);
      ref(A, B, want, NULL, m, 0.0f);
      char what[64];
      snprintf(what, sizeof what, "naive %d, %d x %d", m, bw[t], bh[t]);
      cmp(what, got, want, m);
      free(got), free(want);
    }

  int *dcount, count = 0;
  cudaMalloc(&dcount, sizeof(int));
  cudaMemset(dcount, 0, sizeof(int));
  counted<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(dA, dB, dC, n, dcount);
  cudaMemcpy(C, dC, sz, cudaMemcpyDeviceToHost);
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cmp("counted", C, R, n);
  if (count != (n / 16) * (n / 16) * (n / 16)) {
    printf("FAIL counted: %d tiles, expected %d\n", count, (n / 16) * (n / 16) * (n / 16));
    fails++;
  }
  if (cudaGetLastError() != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    fails++;
  }
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}

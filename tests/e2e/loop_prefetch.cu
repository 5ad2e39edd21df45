// loop_prefetch.cu: which reads of a block-level loop have its next
// iteration's slice prefetched by the loop's last region (W_LPF in
// --dump-lir), and which not. lower_lpf reads the decisions; the program
// checks its products.
#include <cstdio>
#include <cuda_runtime.h>

#define T 16

// the notes' phases: N's tile moves by T rows a phase (prefetched at m + 1);
// M's by T elements of the same rows (the CPU's prefetchers follow it: not)
__global__ void phases(const float *M, const float *N, float *P, int w) {
  __shared__ float sM[T][T], sN[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * T + tx, row = blockIdx.y * T + ty;
  float acc = 0;
  for (int m = 0; m < w / T; m++) {
    sM[ty][tx] = M[row * w + m * T + tx];
    sN[ty][tx] = N[(m * T + ty) * w + col];
    __syncthreads();
    for (int k = 0; k < T; k++) acc += sM[ty][k] * sN[k][tx];
    __syncthreads();
  }
  P[row * w + col] = acc;
}

// the same as a while loop stepping its variable after the last barrier
__global__ void whiles(const float *M, const float *N, float *P, int w) {
  __shared__ float sM[T][T], sN[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * T + tx, row = blockIdx.y * T + ty;
  float acc = 0;
  int ph = 0;
  while (ph < w / T) {
    sM[ty][tx] = M[row * w + ph * T + tx];
    sN[ty][tx] = N[(ph * T + ty) * w + col];
    __syncthreads();
    for (int k = 0; k < T; k++) acc += sM[ty][k] * sN[k][tx];
    __syncthreads();
    ph++;
  }
  P[row * w + col] = acc;
}

// the samples' two cursors: B's moves by T rows (prefetched at b + bStep),
// A's by T elements (not)
__global__ void cursors(const float *A, const float *B, float *C, int w) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = w * T * blockIdx.y, aEnd = aBegin + w - 1, aStep = T;
  int bBegin = T * blockIdx.x, bStep = T * w;
  float acc = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    As[ty][tx] = A[a + w * ty + tx];
    Bs[ty][tx] = B[b + w * ty + tx];
    __syncthreads();
    for (int k = 0; k < T; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[(blockIdx.y * T + ty) * w + blockIdx.x * T + tx] = acc;
}

// not: a tile row found through a table (a load in the index), a loop
// variable also stepped in its body, a loop of one region
__global__ void nots(const float *N, const int *perm, float *P, int w) {
  __shared__ float sN[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * T + tx;
  float acc = 0;
  for (int m = 0; m < w / T; m++) {
    sN[ty][tx] = N[perm[m * T + ty] * w + col];
    __syncthreads();
    acc += sN[tx][ty];
    __syncthreads();
  }
  for (int m = 0; m < w / T; m++) {
    sN[ty][tx] = N[(m * T + ty) * w + col];
    __syncthreads();
    acc += sN[tx][ty];
    __syncthreads();
    if (w > 1000000) m++;
  }
  for (int m = 0; m < w / T; m++) {
    acc += sN[tx][ty] + N[(m * T + ty) * w + col];
    __syncthreads();
  }
  P[(blockIdx.y * T + ty) * w + col] = acc;
}

int main() {
  const int W = 64;
  float *A, *B, *C;
  int *perm;
  cudaMallocManaged(&A, W * W * sizeof(float));
  cudaMallocManaged(&B, W * W * sizeof(float));
  cudaMallocManaged(&C, W * W * sizeof(float));
  cudaMallocManaged(&perm, W * sizeof(int));
  for (int i = 0; i < W * W; i++) A[i] = (float)(i % 5) - 2, B[i] = (float)(i % 3) - 1;
  for (int i = 0; i < W; i++) perm[i] = W - 1 - i;
  dim3 g(W / T, W / T), b(T, T);
  int fails = 0;
  for (int kern = 0; kern < 3; kern++) {
    if (kern == 0) phases<<<g, b>>>(A, B, C, W);
    if (kern == 1) whiles<<<g, b>>>(A, B, C, W);
    if (kern == 2) cursors<<<g, b>>>(A, B, C, W);
    cudaDeviceSynchronize();
    for (int r = 0; r < W; r++)
      for (int c = 0; c < W; c++) {
        float s = 0;
        for (int k = 0; k < W; k++) s += A[r * W + k] * B[k * W + c];
        if (C[r * W + c] != s) fails++;
      }
    if (fails) printf("kernel %d: %d wrong\n", kern, fails);
  }
  nots<<<g, b>>>(B, perm, C, W);
  cudaDeviceSynchronize();
  for (int r = 0; r < W; r++)
    for (int c = 0; c < W; c++) {
      int bx = c / T, tx = c % T, ty = r % T;
      float s = 0;
      for (int m = 0; m < W / T; m++) s += B[perm[m * T + tx] * W + bx * T + ty];
      for (int m = 0; m < W / T; m++) s += B[(m * T + tx) * W + bx * T + ty];
      for (int m = 0; m < W / T; m++) s += B[(W - T + tx) * W + bx * T + ty] + B[(m * T + ty) * W + c];
      if (C[r * W + c] != s) fails++;
    }
  printf(fails ? "FAIL: %d wrong\n" : "PASS\n", fails);
  return fails != 0;
}

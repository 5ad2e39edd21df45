// A tiled matrix multiply's inner product with a temporary of its own: the
// short uniform loop is jammed outside the lanes in the whole- and half-row
// versions, and half rows run two warps at a time; so does the first
// matmul everyone writes; with an atomic in the region (last kernel), one
// warp at a time.
#define T 16
__global__ void mm(const float *A, const float *B, float *C, int w) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int m = 0; m < w / T; m++) {
    As[ty][tx] = A[row * w + m * T + tx];
    Bs[ty][tx] = B[(m * T + ty) * w + col];
    __syncthreads();
    for (int k = 0; k < T; k++) {
      float p = As[ty][k] * Bs[k][tx];
      acc += p;
    }
    __syncthreads();
  }
  C[row * w + col] = acc;
}
// no shared memory: the loop, long, is jammed under a counted bounds test;
// paired too
__global__ void naive(const float *a, const float *b, float *c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0;
    for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}
__global__ void counted(const float *A, const float *B, float *C, int w, int *count) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int m = 0; m < w / T; m++) {
    As[ty][tx] = A[row * w + m * T + tx];
    Bs[ty][tx] = B[(m * T + ty) * w + col];
    __syncthreads();
    for (int k = 0; k < T; k++) acc += As[ty][k] * Bs[k][tx];
    if (tx == 0) atomicAdd(count, 1);
    __syncthreads();
  }
  C[row * w + col] = acc;
}
int main() { return 0; }

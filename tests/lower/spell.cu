// The tiled matmul's inner product in spellings other than bench/'s: the
// loop's variable declared before it, a while loop; the product in a
// __device__ function given the tile's row as a pointer and the column as
// an integer. Each keeps the lanes' sums in registers across its loop, as
// `for (int k = 0; ...)` does (issue 20).
#define T 16
__device__ float dot(const float *row, float (*cols)[T], int c) {
  float s = 0;
  for (int k = 0; k < T; k++) s += row[k] * cols[k][c];
  return s;
}
__global__ void before(const float *A, const float *B, float *C, int w) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int m = 0; m < w / T; m++) {
    As[ty][tx] = A[row * w + m * T + tx];
    Bs[ty][tx] = B[(m * T + ty) * w + col];
    __syncthreads();
    int k;
    for (k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * w + col] = acc;
}
__global__ void whiles(const float *A, const float *B, float *C, int w) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int m = 0; m < w / T; m++) {
    As[ty][tx] = A[row * w + m * T + tx];
    Bs[ty][tx] = B[(m * T + ty) * w + col];
    __syncthreads();
    int k = 0;
    while (k < T) {
      acc += As[ty][k] * Bs[k][tx];
      k++;
    }
    __syncthreads();
  }
  C[row * w + col] = acc;
}
__global__ void called(const float *A, const float *B, float *C, int w) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int m = 0; m < w / T; m++) {
    As[ty][tx] = A[row * w + m * T + tx];
    Bs[ty][tx] = B[(m * T + ty) * w + col];
    __syncthreads();
    acc += dot(&As[ty][0], Bs, tx);
    __syncthreads();
  }
  C[row * w + col] = acc;
}
int main() { return 0; }

// A tiled matrix multiply's inner product with a temporary of its own: the
// short uniform loop is jammed outside the lanes in the whole- and half-row
// versions, and half rows run two warps at a time; with an atomic in the
// region (last kernel), one warp at a time.
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

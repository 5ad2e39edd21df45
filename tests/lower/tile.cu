// A tiled matrix multiply's inner product: a short uniform loop jammed
// outside its lanes, its accumulator held in an array of the lanes' scalars;
// half rows two warps at a time.
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
    for (int k = 0; k < T; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * w + col] = acc;
}
int main() { return 0; }
